import { defineCommand } from '../../command.js';
import { configureDeliveryFlags, configureMetadataFlags, configureVideoFlags, type DeliveryFlags, type MetadataFlags, type VideoFlags } from './flags.js';

export interface EditOpts extends MetadataFlags, DeliveryFlags, VideoFlags {
  metadata?: string;
  delivery?: string;
  video?: string;
}

export const editCommand = defineCommand<EditOpts>({
  name: 'edit',
  args: '<id>',
  summary: "Change a release's metadata, delivery or video settings",
  description: `Each part can come from a JSON or YAML file (--metadata, --delivery, --video: the bodies of PATCH …/metadata, …/delivery, …/video; "-" reads standard input) and from flags, which win over the file. Only what you give changes. Everything is checked before anything is sent; if a later part is refused, the parts already saved are put back as they were.`,
  examples: [
    'reldist release edit 42 --title "Northern Sky" --genre Folk',
    'reldist release edit 42 --release-date 2027-01-15 --territories exclude:KP --price-tier front',
    'reldist release edit 42 --metadata meta.yaml --video-enabled yes --content-id monetize',
  ],
  configure(cmd) {
    cmd.option('--metadata <file>', 'metadata fields from a JSON/YAML file');
    cmd.option('--delivery <file>', 'delivery settings from a JSON/YAML file');
    cmd.option('--video <file>', 'video settings from a JSON/YAML file');
    configureMetadataFlags(cmd);
    configureDeliveryFlags(cmd);
    configureVideoFlags(cmd);
  },
  async run(ctx, opts, args) {
    const { runEdit } = await import('./edit-run.js');
    await runEdit(ctx, opts, args);
  },
});
