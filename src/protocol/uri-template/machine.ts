// The matching machine: a backtracking NFA over a small instruction set. It runs with a visited
// set over (instruction, position), RE2's "BitState": each pair is explored at most once, so
// matching is O(program length x URI length) whatever the template. A RegExp would backtrack
// exponentially on templates like `{a}{b}{c}` (the official TS SDK's UriTemplate had such a ReDoS).
import { isTriplet } from './encoding.js';

/** One instruction; `split` tries `a` first, then `b` (that order gives lazy or greedy). */
export type Inst =
  | { readonly k: 'lit'; readonly text: string }
  | { readonly k: 'unit'; readonly stops: string }
  | { readonly k: 'rest' }
  | { k: 'split'; a: number; b: number }
  | { k: 'jmp'; to: number }
  | { readonly k: 'save'; readonly slot: number }
  | { readonly k: 'end' };

/** How many characters `inst` consumes at `sp`, or -1 when it cannot. */
function consume(inst: Inst, input: string, sp: number): number {
  switch (inst.k) {
    case 'lit':
      return input.startsWith(inst.text, sp) ? inst.text.length : -1;
    case 'unit': {
      if (isTriplet(input, sp)) return 3;
      const ch = input.charAt(sp);
      return ch === '' || ch === '%' || inst.stops.includes(ch) ? -1 : 1;
    }
    case 'rest':
      return input.includes('#', sp) ? -1 : input.length - sp;
    case 'split':
    case 'jmp':
    case 'save':
    case 'end':
      return -1;
  }
}

let scratchBuffer = new Uint8Array(1024);

/** A zeroed byte buffer, reused across calls: {@link run} is synchronous and never re-entered. */
function scratch(size: number): Uint8Array {
  if (scratchBuffer.length < size)
    scratchBuffer = new Uint8Array(Math.max(size, 2 * scratchBuffer.length));
  scratchBuffer.fill(0, 0, size);
  return scratchBuffer;
}

/**
 * Runs `program` against the whole of `input`, trying alternatives in priority order, and returns
 * the capture slots of the first success (-1 for unset), or undefined.
 */
export function run(
  program: readonly Inst[],
  input: string,
  slotCount: number,
): number[] | undefined {
  const width = input.length + 1;
  const visited = scratch(Math.ceil((program.length * width) / 8));
  const slots: number[] = new Array<number>(slotCount).fill(-1);
  // Jobs, three numbers each: [0, pc, sp] explores; [1, slot, old] restores a capture slot.
  const jobs: number[] = [0, 0, 0];
  while (jobs.length > 0) {
    const b = jobs.pop() ?? 0;
    const a = jobs.pop() ?? 0;
    if (jobs.pop() === 1) {
      slots[a] = b;
      continue;
    }
    let pc = a;
    let sp = b;
    for (;;) {
      const bit = pc * width + sp;
      const at = Math.floor(bit / 8);
      const mask = 1 << (bit % 8);
      const byte = visited[at] ?? 0;
      if ((byte & mask) !== 0) break;
      visited[at] = byte | mask;
      const inst = program[pc];
      if (inst === undefined) break;
      if (inst.k === 'end') {
        if (sp === input.length) return slots;
        break;
      }
      if (inst.k === 'split') {
        jobs.push(0, inst.b, sp);
        pc = inst.a;
      } else if (inst.k === 'jmp') {
        pc = inst.to;
      } else if (inst.k === 'save') {
        jobs.push(1, inst.slot, slots[inst.slot] ?? -1);
        slots[inst.slot] = sp;
        pc++;
      } else {
        const n = consume(inst, input, sp);
        if (n < 0) break;
        sp += n;
        pc++;
      }
    }
  }
  return undefined;
}
