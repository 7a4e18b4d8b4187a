// `reldist help <topic>`: help that is not a command. Import-light: main.ts answers these
// without loading commander.
import { exitCodeHelp } from './errors.js';

export const helpTopics: Record<string, string> = {
  'exit-codes': exitCodeHelp,
};
