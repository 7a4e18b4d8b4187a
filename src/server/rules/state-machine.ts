// The release state machine of the domain design. Every change of status goes through here, and
// every edit asks here first, so a locked release answers 409 naming its state.
//
//   draft --submit--> in_review --approve--> approved --deliver--> delivered --go live--> live
//     ^                  |  \--reject--> rejected --edit--> draft
//     |                  \--withdraw--> draft
//   delivered, live --take down--> taken_down
import type { ReleaseStatus } from '../../contract/index.js';
import { ServiceError } from '../handler.js';

export type Transition = 'submit' | 'approve' | 'reject' | 'withdraw' | 'deliver' | 'go_live' | 'take_down';

const TRANSITIONS: Record<Transition, { from: readonly ReleaseStatus[]; to: ReleaseStatus }> = {
  submit: { from: ['draft'], to: 'in_review' },
  approve: { from: ['in_review'], to: 'approved' },
  reject: { from: ['in_review'], to: 'rejected' },
  withdraw: { from: ['in_review'], to: 'draft' },
  deliver: { from: ['approved'], to: 'delivered' },
  go_live: { from: ['delivered'], to: 'live' },
  take_down: { from: ['delivered', 'live'], to: 'taken_down' },
};

/** What may be done to a release in each state. */
export type Action = 'edit_metadata' | 'edit_delivery' | 'edit_video' | 'edit_tracks' | 'upload' | 'delete';

const ALLOWED: Record<ReleaseStatus, readonly Action[]> = {
  // A rejected release is edited back into a draft.
  draft: ['edit_metadata', 'edit_delivery', 'edit_video', 'edit_tracks', 'upload', 'delete'],
  rejected: ['edit_metadata', 'edit_delivery', 'edit_video', 'edit_tracks', 'upload', 'delete'],
  in_review: [],
  approved: [],
  // After delivery the metadata, delivery and video settings may still be corrected (the stores
  // get a redelivery), but the UPC, the ISRCs (so the tracks) and the label never change.
  delivered: ['edit_metadata', 'edit_delivery', 'edit_video'],
  live: ['edit_metadata', 'edit_delivery', 'edit_video'],
  taken_down: [],
};

const ACTION_WORDS: Record<Action, string> = {
  edit_metadata: 'its metadata cannot be edited',
  edit_delivery: 'its delivery settings cannot be edited',
  edit_video: 'its video setting cannot be edited',
  edit_tracks: 'its tracks cannot be changed',
  upload: 'no files can be uploaded to it',
  delete: 'it cannot be deleted',
};

const STATE_WORDS: Record<ReleaseStatus, string> = {
  draft: 'a draft',
  in_review: 'in review',
  approved: 'approved',
  rejected: 'rejected',
  delivered: 'delivered',
  live: 'live',
  taken_down: 'taken down',
};

/** With `releaseId`, the error names the release and its status as data too (`details`). */
export function stateConflict(status: ReleaseStatus, detail: string, releaseId?: number): ServiceError {
  return new ServiceError(409, 'state_conflict', `the release is ${STATE_WORDS[status]} (status ${status}): ${detail}`, {
    ...(releaseId !== undefined ? { details: { release_id: releaseId, status } } : {}),
  });
}

export function assertAllowed(status: ReleaseStatus, action: Action): void {
  if (!ALLOWED[status].includes(action)) {
    // No client can take a release back from review (only the sandbox's controls can): say what can happen.
    const hint = status === 'in_review' ? '; it can be edited again if the review rejects it' : '';
    throw stateConflict(status, `${ACTION_WORDS[action]}${hint}`);
  }
}

export function isAllowed(status: ReleaseStatus, action: Action): boolean {
  return ALLOWED[status].includes(action);
}

/** The status after an edit: editing a rejected release makes it a draft again. */
export function statusAfterEdit(status: ReleaseStatus): ReleaseStatus {
  return status === 'rejected' ? 'draft' : status;
}

export function transition(status: ReleaseStatus, t: Transition, releaseId?: number): ReleaseStatus {
  const rule = TRANSITIONS[t];
  if (!rule.from.includes(status)) {
    throw stateConflict(status, `${t.replace('_', ' ')} is possible only from ${rule.from.join(' or ')}`, releaseId);
  }
  return rule.to;
}
