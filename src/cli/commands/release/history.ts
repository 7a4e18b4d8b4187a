// `release history`: what happened to one release, in order: who did what and when, with every
// field a change touched, old → new. Read from the account's event log (GET /events).
import type { EventResource } from '../../../contract/events.js';
import type { Context } from '../../context.js';
import type { OptsOf } from '../../command.js';
import type { historyCommand } from './spec.js';
import { CliError, ExitCode } from '../../errors.js';
import { printJson, note } from '../../output/index.js';
import { tsvCell } from '../../output/format.js';
import { eventsAfter, isNoFeed } from '../../shared/event-feed.js';
import { actorText, changeLines, summaryOf } from '../../shared/event-views.js';
import { releaseLabel, resolveReleaseRefs } from '../../shared/release-ref.js';

export async function run(ctx: Context, _opts: OptsOf<typeof historyCommand>, args: string[]): Promise<void> {
  const client = await ctx.services.client();
  const [ref] = await resolveReleaseRefs(client, args.slice(0, 1), ctx.signal);
  const events: EventResource[] = [];
  try {
    for await (const e of eventsAfter(client, { releaseId: ref!.id }, 0, ctx.signal, false)) events.push(e);
  } catch (err) {
    if (isNoFeed(err))
      throw new CliError("this service keeps no event log, so it cannot tell a release's history", {
        exitCode: ExitCode.failure,
        code: 'no_event_log',
      });
    throw err;
  }
  if (ctx.globals.json) return printJson(ctx, events);
  if (events.length === 0) {
    note(ctx, `no events for ${releaseLabel(ref!.id, ref!.catalogNumber)} (changes made before the service kept events are not in it)`);
    return;
  }
  const terminal = ctx.io.stdoutIsTTY;
  for (const e of events) {
    if (terminal) {
      ctx.io.stdout.write(`${e.created_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}  ${summaryOf(e)}  (${actorText(e)})\n`);
      for (const line of changeLines(e)) ctx.io.stdout.write(`    ${line}\n`);
      continue;
    }
    // Piped: a line per event and per changed field: time, type, who, then the field, old and new (empty for the event's own line).
    const head = [e.created_at, e.type, actorText(e)];
    const changes = fieldRows(e);
    if (changes.length === 0) ctx.io.stdout.write(`${[...head, summaryOf(e), '', ''].map(tsvCell).join('\t')}\n`);
    for (const c of changes) ctx.io.stdout.write(`${[...head, c.field, c.old, c.new].map(tsvCell).join('\t')}\n`);
  }
}

/** An event's changed fields as text cells (tracks' fields prefixed with the track). */
function fieldRows(e: EventResource): { field: string; old: string; new: string }[] {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  if (e.type === 'release.updated') return e.data.changes.map((c) => ({ field: c.field, old: cell(c.old), new: cell(c.new) }));
  if (e.type !== 'release.tracks_changed') return [];
  const d = e.data;
  return [
    ...d.added.map((t) => ({ field: `tracks.${t.track_id}`, old: '', new: `${t.disc}-${t.position} ${t.title}` })),
    ...d.removed.map((t) => ({ field: `tracks.${t.track_id}`, old: `${t.disc}-${t.position} ${t.title}`, new: '' })),
    ...d.changed.flatMap((t) => t.changes.map((c) => ({ field: `tracks.${t.track_id}.${c.field}`, old: cell(c.old), new: cell(c.new) }))),
    ...d.changes.map((c) => ({ field: c.field, old: cell(c.old), new: cell(c.new) })),
  ];
}
