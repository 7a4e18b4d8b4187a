import { defineCommand } from '../../command.js';

export const languagesCommand = defineCommand({
  name: 'languages',
  summary: 'List the languages of metadata and audio (ISO 639-1 codes)',
  description: 'Codes for --language and for audio_language of a track ("instrumental" is also accepted there).',
  examples: ['reldist lookup languages', 'reldist lookup languages --json | jq -r ".[].code"'],
  async run(ctx) {
    const { api } = await import('../release/common.js');
    const { printList } = await import('../../output/index.js');
    const rows = await (await api(ctx)).call('getLanguages');
    await printList(ctx, rows, [
      { header: 'CODE', value: 'code' },
      { header: 'NAME', value: 'name' },
      { header: 'NATIVE NAME', value: 'native_name' },
    ]);
  },
});
