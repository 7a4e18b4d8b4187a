import { defineGroup } from '../../command.js';
import { resolveCommand } from './resolve.js';
import { searchCommand } from './search.js';

export const artistGroup = defineGroup({
  name: 'artist',
  summary: 'Find and resolve artist profiles on the external platforms',
  examples: ['reldist artist search "Nina Vale"', 'reldist artist resolve https://open.streaming-a.example/artist/4Z8W4fKeB5YxbusRsdQVPb'],
  commands: [searchCommand, resolveCommand],
});
