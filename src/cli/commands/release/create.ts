import { defineCommand } from '../../command.js';
import { configureDeliveryFlags, configureMetadataFlags, configureVideoFlags, type DeliveryFlags, type MetadataFlags, type VideoFlags } from './flags.js';

export interface CreateOpts extends MetadataFlags, DeliveryFlags, VideoFlags {
  file?: string;
  submit?: boolean;
  check?: boolean;
}

export const createCommand = defineCommand<CreateOpts>({
  name: 'create',
  summary: 'Create a release: from flags, from a release file, or with a wizard',
  description: `Three ways in:
  - flags: --type, --title, --artist and --label are required, the rest optional;
  - --file release.yaml (or .json; "-" for standard input): the release with its tracks and their audio, delivery and video settings (format: docs/release-file.md). Flags win over the file. The file is checked first, every problem named as file:line: field.path: expected …; then the draft is created, every track uploaded and attached, delivery and video applied. If any step fails, the draft is deleted again and the error says what happened;
  - nothing given, on a terminal: a wizard asks for each field, shows a summary and creates the release only when you confirm. Ctrl-C at any step leaves nothing created.

With --no-input (or not on a terminal) nothing is ever asked: a missing field is a usage error naming its flag. --submit submits the release once it is complete; --check only checks the file and flags and prints the plan, sending nothing.

--json prints the release as the service sends it (with --submit: {release, submit}).`,
  examples: [
    'reldist release create',
    'reldist release create --type single --title "Northern Sky" --artist "Nina Vale" --label "Northern Lights Records" --genre Pop --language en',
    'reldist release create --file examples/first-release/release.yaml --submit',
    'reldist release create --file release.yaml --check',
  ],
  configure(cmd) {
    cmd.option('-f, --file <file>', 'a release file (JSON or YAML) with tracks and settings');
    cmd.option('--submit', 'submit the release for review once it is created');
    cmd.option('--check', 'check the release file and flags and print the plan; create nothing');
    configureMetadataFlags(cmd);
    configureDeliveryFlags(cmd);
    configureVideoFlags(cmd);
  },
  async run(ctx, opts) {
    const { runCreate } = await import('./create-run.js');
    await runCreate(ctx, opts);
  },
});
