import { defineCommand } from '../../command.js';

export const genresCommand = defineCommand({
  name: 'genres',
  summary: 'List the genres a release can have',
  description: 'Values for --genre and --subgenre, and for genre in a release file.',
  examples: ['reldist lookup genres', 'reldist lookup genres --json'],
  async run(ctx) {
    const { api } = await import('../release/common.js');
    const { printList } = await import('../../output/index.js');
    const genres = await (await api(ctx)).call('getGenres');
    await printList(ctx, genres, [{ header: 'GENRE', value: (g) => g }]);
  },
});
