#!/bin/sh
# Groups change lines ("kind: summary") by kind.
sort | awk -F': ' '{ print $1 "\t" $2 }'
