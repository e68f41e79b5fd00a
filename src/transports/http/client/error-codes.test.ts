// Every error code means one thing: the HTTP client's own codes are none of the protocol's.
import { describe, expect, it } from 'vitest';
import { INSUFFICIENT_SCOPE, McpErrorCode } from '../../../protocol/index.js';
import { HttpErrorCode } from './http.js';

describe('HttpErrorCode', () => {
  it("shares no code with MCP's codes or the server's insufficient scope", () => {
    const protocol = new Set<number>([...Object.values(McpErrorCode), INSUFFICIENT_SCOPE]);
    const ours = Object.values(HttpErrorCode);
    expect(new Set(ours).size).toBe(ours.length);
    for (const code of ours) expect(protocol.has(code), String(code)).toBe(false);
  });
});
