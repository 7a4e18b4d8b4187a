// Command descriptions are written with line breaks in the source; --help reflows their prose so
// that commander wraps it to the terminal, keeping what is laid out on purpose.
import { describe, expect, it } from 'vitest';
import { reflow } from '../../src/cli/help-text.js';

describe('reflow', () => {
  it('joins the lines of a paragraph, keeps blank lines, indented lines and list items', () => {
    const text = [
      'One sentence that the source',
      'broke in two.',
      '',
      'Rows:',
      '  input<TAB>verdict',
      'and after it, prose',
      'again.',
      '- an item',
      '- another',
      '1. first',
    ].join('\n');
    expect(reflow(text)).toBe(
      [
        'One sentence that the source broke in two.',
        '',
        'Rows:',
        '  input<TAB>verdict',
        'and after it, prose again.',
        '- an item',
        '- another',
        '1. first',
      ].join('\n'),
    );
  });

  it('leaves a one-line text as it is', () => {
    expect(reflow('check ISRCs (offline, or --remote)')).toBe('check ISRCs (offline, or --remote)');
  });
});
