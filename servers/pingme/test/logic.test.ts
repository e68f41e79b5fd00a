import { describe, expect, it } from 'vitest';
import { PING_REPLY, ping } from '../logic.js';

describe('pingme logic', () => {
  it('replies BISMILLAH', () => {
    expect(ping()).toBe('BISMILLAH');
    expect(PING_REPLY).toBe('BISMILLAH');
  });
});
