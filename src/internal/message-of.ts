// The text of a thrown value.

/** The message of `error` when it is an Error, else its string form. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
