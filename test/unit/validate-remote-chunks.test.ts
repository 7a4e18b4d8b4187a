// validate --remote's chunking (askInOrder): chunks of the given size, never more than the given
// number of requests in flight, the window refilled as the oldest is answered, and every answer
// handed out in input order whatever order the service answers in.
import { describe, expect, it } from 'vitest';
import { askInOrder, REMOTE_IN_FLIGHT, type RemoteChecker } from '../../src/cli/commands/validate/remote.js';
import type { RemoteVerdict } from '../../src/cli/commands/validate/format.js';

const verdict = (input: string): RemoteVerdict => ({ kind: 'upc', input, valid: true, normalized: input, display: input, problems: [] });

/** A service whose requests wait until the test answers them, in any order. */
function heldService() {
  const held: { codes: readonly string[]; answer(): void }[] = [];
  let inFlight = 0;
  let max = 0;
  const ask: RemoteChecker = (codes) =>
    new Promise((resolve) => {
      max = Math.max(max, ++inFlight);
      held.push({
        codes,
        answer: () => {
          inFlight--;
          resolve(codes.map(verdict));
        },
      });
    });
  return { ask, held, max: () => max };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('askInOrder', () => {
  it(`keeps ${REMOTE_IN_FLIGHT} requests in flight and hands answers out in input order, whatever order they come in`, async () => {
    const items = Array.from({ length: 23 }, (_, i) => `c${i}`);
    const service = heldService();
    const seen: string[] = [];
    const done = askInOrder(items, (c) => c, service.ask, (item, answer) => {
      expect(answer.input).toBe(item);
      seen.push(item);
    }, { chunkSize: 3 });
    await flush();
    expect(service.held.map((h) => h.codes)).toEqual([['c0', 'c1', 'c2'], ['c3', 'c4', 'c5'], ['c6', 'c7', 'c8'], ['c9', 'c10', 'c11']]);
    // The newest answered first: nothing can be written before the oldest is in.
    service.held[3]!.answer();
    service.held[1]!.answer();
    await flush();
    expect(seen).toEqual([]);
    expect(service.held).toHaveLength(4);
    // The oldest answered: its codes and the next already answered are written, and the window refilled.
    service.held[0]!.answer();
    await flush();
    expect(seen).toEqual(items.slice(0, 6));
    expect(service.held).toHaveLength(6);
    // Answer the rest, one at a time, in order (bounded: 8 chunks in all).
    for (let i = 2; i < 8; i++) {
      if (service.held[i]) service.held[i]!.answer();
      await flush();
    }
    await done;
    expect(seen).toEqual(items);
    expect(service.held.map((h) => h.codes.length)).toEqual([3, 3, 3, 3, 3, 3, 3, 2]);
    expect(service.max()).toBe(REMOTE_IN_FLIGHT);
  });

  it('sends nothing for no codes; a failed chunk stops it, with what came before handed out', async () => {
    let calls = 0;
    await askInOrder([], (c: string) => c, async () => {
      calls++;
      return [];
    }, () => {});
    expect(calls).toBe(0);

    const seen: string[] = [];
    const failing: RemoteChecker = async (codes) => {
      if (codes[0] === 'c2') throw new Error('service down');
      return codes.map(verdict);
    };
    await expect(askInOrder(['c0', 'c1', 'c2', 'c3', 'c4'], (c) => c, failing, (c) => void seen.push(c), { chunkSize: 2 })).rejects.toThrow('service down');
    expect(seen).toEqual(['c0', 'c1']);
  });
});
