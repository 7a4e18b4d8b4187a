// The `artwork` group as --help and shell completion see it. Declarations only (cheap to load);
// each verb's code is in <verb>.ts (see ../runners.ts).
import { defineCommand, defineGroup } from '../../command.js';

export const checkCommand = defineCommand({
  name: 'check',
  args: '<files...>',
  summary: "Check cover images against the service's rules, offline",
  description:
    "Reads each image from its bytes (never its name), without the service or the network, as the service does at upload and at submit. Prints its format, size in pixels, colour space, bit depth, ICC profile and file size, then every problem in words with its fix. Refused at upload (as the service would): not an image, damaged or cut short, animated, over 100 megapixels (judged from the header: never decoded), over 50 MiB. Blocking the submit: not square, under 3000 × 3000 px, not JPEG or PNG, not RGB (Apple Music's and Spotify's specifications). A warning: 16 bits per channel. Exit 3 when any file would be refused or would block the submit, 2 when a file does not exist. --json prints an array, one object per file.",
  examples: ['reldist artwork check cover.jpg', 'reldist artwork check art/*.png --json | jq ".[] | select(.ok | not) | .file"'],
});

export const artworkGroup = defineGroup({
  name: 'artwork',
  summary: "Check cover images against the stores' rules, offline",
  examples: ['reldist artwork check cover.jpg'],
  commands: [checkCommand],
});
