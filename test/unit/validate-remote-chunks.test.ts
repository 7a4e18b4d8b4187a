// validate --remote's queue (RemoteQueue): chunks of the given size, never more than the given
// number in flight, the next sent as soon as a slot frees, and every answer handed out in input
// order whatever order the service answers in, while the reader goes on.
import { describe, expect, it } from 'vitest';
import { REMOTE_IN_FLIGHT, RemoteQueue, type RemoteChecker } from '../../src/cli/commands/validate/remote.js';
import type { RemoteVerdict } from '../../src/cli/commands/validate/format.js';

const verdict = (input: string): RemoteVerdict => ({ kind: 'upc', input, valid: true, normalized: input, display: input, problems: [] });

/** A service whose requests wait until the test answers (or fails) them, in any order. */
function heldService() {
  const held: { codes: readonly string[]; answer(): void; fail(e: Error): void }[] = [];
  let inFlight = 0;
  let max = 0;
  const ask: RemoteChecker = (codes) =>
    new Promise((resolve, reject) => {
      max = Math.max(max, ++inFlight);
      held.push({
        codes,
        answer: () => {
          inFlight--;
          resolve(codes.map(verdict));
        },
        fail: (e) => {
          inFlight--;
          reject(e);
        },
      });
    });
  return { ask, held, max: () => max };
}

const flush = () => new Promise<void>((r) => setImmediate(r));
const items = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `c${from + i}`);

function queueOver(service: ReturnType<typeof heldService>, chunkSize = 3) {
  const seen: string[] = [];
  const flushedAfter: number[] = [];
  const queue = new RemoteQueue<string>(
    service.ask,
    (c) => c,
    (item, answer) => {
      expect(answer.input).toBe(item);
      seen.push(item);
    },
    () => void flushedAfter.push(seen.length),
    { chunkSize },
  );
  return { queue, seen, flushedAfter };
}

describe('RemoteQueue', () => {
  it(`keeps ${REMOTE_IN_FLIGHT} chunks in flight and hands answers out in input order, whatever order they come in`, async () => {
    const service = heldService();
    const { queue, seen, flushedAfter } = queueOver(service);
    // 17 items: four full chunks go at once; the fifth waits for a slot.
    let added = false;
    const adding = queue.add(items(17)).then(() => (added = true));
    await flush();
    expect(service.held.map((h) => h.codes)).toEqual([items(3), items(3, 3), items(3, 6), items(3, 9)]);
    // The newest answered first: nothing can be written before the oldest is in, and no slot frees.
    service.held[3]!.answer();
    service.held[1]!.answer();
    await flush();
    expect(seen).toEqual([]);
    expect(service.held).toHaveLength(4);
    expect(added).toBe(false);
    // The oldest answered: its codes and the next (already answered) are written, flushed after each chunk.
    service.held[0]!.answer();
    await flush();
    expect(seen).toEqual(items(6));
    expect(flushedAfter).toEqual([3, 6]);
    // Slots freed: the fifth chunk went, and the reader goes on.
    await adding;
    expect(service.held[4]!.codes).toEqual(items(3, 12));
    // The two left over go as a partial chunk when the reader says its input chunk ended.
    await queue.send();
    expect(service.held.map((h) => h.codes.length)).toEqual([3, 3, 3, 3, 3, 2]);
    const draining = queue.drain();
    for (const i of [5, 2, 4]) service.held[i]!.answer();
    await draining;
    expect(seen).toEqual(items(17));
    expect(service.max()).toBe(REMOTE_IN_FLIGHT);
  });

  it('writes answers while the reader waits for input (a slow source sees them at once)', async () => {
    const service = heldService();
    const { queue, seen } = queueOver(service, 1000);
    await queue.add(items(3));
    await queue.send();
    service.held[0]!.answer();
    await flush();
    expect(seen).toEqual(items(3));
    await queue.drain();
  });

  it('sends nothing for no codes; a failed chunk stops it once the chunks before it are written', async () => {
    const idle = heldService();
    await queueOver(idle).queue.drain();
    expect(idle.held).toHaveLength(0);

    const service = heldService();
    const { queue, seen } = queueOver(service, 2);
    await queue.add(items(6));
    await queue.send();
    service.held[1]!.fail(new Error('service down'));
    service.held[2]!.answer();
    await flush();
    expect(seen).toEqual([]);
    service.held[0]!.answer();
    await expect(queue.drain()).rejects.toThrow('service down');
    expect(seen).toEqual(items(2));
  });
});
