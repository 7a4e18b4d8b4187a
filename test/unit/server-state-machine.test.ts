import { describe, expect, test } from 'vitest';
import type { ReleaseStatus } from '../../src/contract/index.js';
import { ServiceError } from '../../src/server/handler.js';
import { assertAllowed, statusAfterEdit, transition, type Transition } from '../../src/server/rules/state-machine.js';

const ALL: ReleaseStatus[] = ['draft', 'in_review', 'approved', 'rejected', 'delivered', 'live', 'taken_down'];
const ok: Record<Transition, [ReleaseStatus, ReleaseStatus][]> = {
  submit: [['draft', 'in_review']],
  approve: [['in_review', 'approved']],
  reject: [['in_review', 'rejected']],
  withdraw: [['in_review', 'draft']],
  deliver: [['approved', 'delivered']],
  go_live: [['delivered', 'live']],
  take_down: [
    ['delivered', 'taken_down'],
    ['live', 'taken_down'],
  ],
};

describe('transitions', () => {
  for (const [t, pairs] of Object.entries(ok) as [Transition, [ReleaseStatus, ReleaseStatus][]][]) {
    test(t, () => {
      for (const from of ALL) {
        const allowed = pairs.find(([f]) => f === from);
        if (allowed) {
          expect(transition(from, t)).toBe(allowed[1]);
        } else {
          let err: unknown;
          try {
            transition(from, t);
          } catch (e) {
            err = e;
          }
          expect(err, `${t} from ${from}`).toBeInstanceOf(ServiceError);
          expect((err as ServiceError).status).toBe(409);
          expect((err as ServiceError).message).toContain(from);
        }
      }
    });
  }
});

test('edits: draft and rejected editable; in review, approved and taken down locked; delivered/live metadata only', () => {
  const editable = (s: ReleaseStatus, a: Parameters<typeof assertAllowed>[1]) => {
    try {
      assertAllowed(s, a);
      return true;
    } catch {
      return false;
    }
  };
  for (const s of ['draft', 'rejected'] as const) expect(editable(s, 'edit_tracks') && editable(s, 'delete')).toBe(true);
  for (const s of ['in_review', 'approved', 'taken_down'] as const) expect(editable(s, 'edit_metadata') || editable(s, 'delete')).toBe(false);
  for (const s of ['delivered', 'live'] as const) {
    expect(editable(s, 'edit_metadata')).toBe(true);
    expect(editable(s, 'edit_tracks') || editable(s, 'delete') || editable(s, 'upload')).toBe(false);
  }
  expect(statusAfterEdit('rejected')).toBe('draft');
  expect(statusAfterEdit('live')).toBe('live');
});
