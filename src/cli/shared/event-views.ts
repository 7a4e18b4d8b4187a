// How the CLI shows events (`events list|tail`, `release history`): one line per event, in words,
// and the fields a change touched, old → new. Pure.
import type { EventResource, FieldChange } from '../../contract/events.js';
import { eventTypes } from '../../contract/wire-values.js';
import { tsvCell } from '../output/format.js';
import { UsageError } from '../errors.js';
import { releaseLabel } from './release-ref.js';
import { statusWords } from './release-views.js';

export type EventType = EventResource['type'];

/** --type: a type as the service names it (release.approved) or without its `release.` (approved). */
export function eventTypeOption(value: unknown): EventType | undefined {
  if (value === undefined) return undefined;
  const given = String(value).trim();
  const found = eventTypes.find((t) => t === given || t === `release.${given}`);
  if (!found) throw new UsageError(`--type: unknown event type "${given}"; one of ${eventTypes.join(', ')}`);
  return found;
}

const MAX_VALUE = 60;

/** A field's value in words: text as is, nothing as "(none)", anything else as JSON; long ones cut. */
export function valueText(v: unknown): string {
  const text = v === null || v === undefined || v === '' ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

export function changeText(c: FieldChange): string {
  return `${c.field}: ${valueText(c.old)} → ${valueText(c.new)}`;
}

/** Every field change of an event, tracks' prefixed with the track (`track 7 title: a → b`). */
export function changeLines(e: EventResource): string[] {
  if (e.type === 'release.updated') return e.data.changes.map(changeText);
  if (e.type !== 'release.tracks_changed') return [];
  const d = e.data;
  return [
    ...d.added.map((t) => `track ${t.track_id} added: ${t.disc}-${t.position} ${t.title}`),
    ...d.removed.map((t) => `track ${t.track_id} removed: ${t.disc}-${t.position} ${t.title}`),
    ...d.changed.flatMap((t) => t.changes.map((c) => `track ${t.track_id} ${changeText(c)}`)),
    ...d.changes.map(changeText),
  ];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What happened, in a few words. */
export function summaryOf(e: EventResource): string {
  switch (e.type) {
    case 'release.created':
      return `created "${e.data.title}" (${e.data.type})`;
    case 'release.updated':
      return `changed ${e.data.changes.map((c) => c.field).join(', ')}`;
    case 'release.tracks_changed': {
      const d = e.data;
      const parts = [
        d.added.length ? `${d.added.length} added` : '',
        d.removed.length ? `${d.removed.length} removed` : '',
        d.changed.length ? `${d.changed.length} changed` : '',
      ].filter(Boolean);
      return `tracks: ${parts.join(', ') || 'unchanged'}${d.changes.length ? `; ${d.changes.map((c) => c.field).join(', ')} changed` : ''}`;
    }
    case 'release.submitted': {
      const a = e.data.assigned;
      const codes = [a.upc ? `UPC ${a.upc}` : '', a.isrcs.length ? plural(a.isrcs.length, 'ISRC') : ''].filter(Boolean);
      return `submitted for review${codes.length ? ` (assigned ${codes.join(', ')})` : ''}`;
    }
    case 'release.rejected':
      return `rejected: ${e.data.codes.join(', ') || 'no reason codes'}${e.data.notes ? ` (notes: ${e.data.notes})` : ''}`;
    case 'release.approved':
      return 'approved';
    case 'release.withdrawn':
      return 'withdrawn from review (a draft again)';
    case 'release.delivered':
      return 'delivered to the stores';
    case 'release.live':
      return 'went live';
    case 'release.taken_down':
      return 'taken down';
    case 'release.deleted':
      return `deleted (was ${statusWords(e.data.status)})`;
    case 'upload.ready':
      return `file ${e.data.filename} ready (${e.data.format}, ${e.data.sample_rate / 1000} kHz, ${e.data.bit_depth}-bit)`;
  }
}

export function actorText(e: EventResource): string {
  return e.actor.name ?? (e.actor.kind === 'system' ? 'the service' : `user ${e.actor.user_id ?? '?'}`);
}

/**
 * One event as a line. Piped: tab-separated id, time, type, release id, catalog number, who,
 * summary. On a terminal: time, release, who and what, in words.
 */
export function eventLine(e: EventResource, terminal: boolean): string {
  if (!terminal) {
    return `${[String(e.id), e.created_at, e.type, String(e.release_id), e.catalog_number ?? '', actorText(e), summaryOf(e)].map(tsvCell).join('\t')}\n`;
  }
  const when = e.created_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  return `${when}  ${releaseLabel(e.release_id, e.catalog_number)}  ${summaryOf(e)}  (${actorText(e)})\n`;
}
