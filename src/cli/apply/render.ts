// What `release apply --plan` shows (and the terminal, as it goes): one line per release with a
// symbol and what would change, then one summary line. Pure: strings in, strings out.
import type { Problem } from '../../contract/index.js';
import { changeOf, type ApplyAction, type ApplyPlan, type FieldChange } from './plan.js';
import { plural } from '../output/format.js';

export interface PlannedRelease {
  /** The release file, as the user named it. */
  file: string;
  catalogNumber: string;
  plan: ApplyPlan;
  /** What the submit checks would find, offline (with --submit); any error means the submit would be blocked. */
  submitProblems?: readonly Problem[];
}

/** The errors among the submit checks' problems: a submit with any is blocked. */
export function blockingCount(problems: readonly Problem[] | undefined): number {
  return problems?.filter((p) => p.severity !== 'warning').length ?? 0;
}

export const ACTION_SYMBOLS: Record<ApplyAction, string> = { create: '+', update: '~', unchanged: '=', skip: '!' };

/** `~ NLR-0001  release.yaml  title: "Old" → "New"; track 2 audio; delivery.release_date: none → "2030-01-11"` */
/** A release whose submit would be blocked is marked `!`, whatever else would change. */
export function planLine(item: PlannedRelease): string {
  const blocking = item.plan.submit ? blockingCount(item.submitProblems) : 0;
  const what = describePlan(item.plan, blocking);
  return `${blocking > 0 ? '!' : ACTION_SYMBOLS[item.plan.action]} ${item.catalogNumber.trim()}  ${item.file}${what ? `  ${what}` : ''}`;
}

/** One line per release, then the summary. */
export function planText(items: readonly PlannedRelease[]): string {
  const blocked = items.filter((i) => i.plan.submit && blockingCount(i.submitProblems) > 0).length;
  return [
    ...items.map(planLine),
    summaryLine(
      items.map((i) => i.plan),
      blocked,
    ),
  ]
    .map((l) => `${l}\n`)
    .join('');
}

/**
 * "3 to create, 1 to update, 1 to submit, 26 unchanged, 0 skipped"; `blocked` of the submits would
 * be blocked by the submit checks: "…, 1 to submit, 1 blocked at submit, …" (said only when any).
 */
export function summaryLine(plans: readonly ApplyPlan[], blocked = 0): string {
  const count = (action: ApplyAction) => plans.filter((p) => p.action === action).length;
  const submits = plans.filter((p) => p.submit).length - blocked;
  const blockedWords = blocked > 0 ? `, ${blocked} blocked at submit` : '';
  return `${count('create')} to create, ${count('update')} to update, ${submits} to submit${blockedWords}, ${count('unchanged')} unchanged, ${count('skip')} skipped`;
}

/** What a plan would do, in a few words; "" for an unchanged release that nothing is asked of. `blocking`: errors the submit checks would find. */
export function describePlan(plan: ApplyPlan, blocking = 0): string {
  const parts: string[] = [];
  switch (plan.action) {
    case 'skip':
      return plan.reason ?? '';
    case 'create': {
      const uploads = changeOf(plan, 'upload')?.trackIndexes.length ?? 0;
      parts.push(uploads > 0 ? `new release, ${plural(uploads, 'track')}` : 'new release');
      if (changeOf(plan, 'artwork')) parts.push('cover');
      if (changeOf(plan, 'delivery')) parts.push('delivery');
      if (changeOf(plan, 'video')) parts.push('video');
      break;
    }
    default:
      for (const change of plan.changes) {
        if (change.kind !== 'submit') parts.push(...change.fields.map(describeField));
      }
  }
  if (plan.submit) parts.push(blocking > 0 ? `submit would be blocked (${plural(blocking, 'error')})` : 'submit');
  else if (plan.reason) parts.push(plan.reason);
  return parts.join('; ');
}

/** `title: "Old" → "New"` for plain values; the label alone for audio, added or removed tracks and lists. */
export function describeField(f: FieldChange): string {
  if (f.path.endsWith('.audio') || f.path === 'artwork' || f.before === undefined || f.after === undefined) return f.label;
  if (!isPlain(f.before) || !isPlain(f.after)) return f.label;
  return `${f.label}: ${showValue(f.before)} → ${showValue(f.after)}`;
}

const MAX_VALUE_CHARS = 40;

function isPlain(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function showValue(v: unknown): string {
  if (v === null) return 'none';
  if (typeof v !== 'string') return String(v);
  const text = v.length > MAX_VALUE_CHARS ? `${v.slice(0, MAX_VALUE_CHARS - 1)}…` : v;
  return JSON.stringify(text);
}
