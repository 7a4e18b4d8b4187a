// Path ids: the reference service issues positive integers; anything else names nothing (404).
import { notFound } from '../handler.js';

export function parseId(raw: unknown, what: string): number {
  const s = typeof raw === 'number' ? String(raw) : raw;
  const shown = typeof s === 'string' && s.length <= 64 ? ` ${s}` : '';
  if (typeof s !== 'string' || !/^[1-9][0-9]{0,15}$/.test(s)) throw notFound(`${what}${shown}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw notFound(`${what}${shown}`);
  return n;
}
