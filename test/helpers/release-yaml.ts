// A complete, submittable release file (YAML) for the `release apply` tests: one track (`audio`)
// or several (`tracks`, an EP), each file given by absolute path.
export function releaseYaml(
  catalogNumber: string,
  o: { audio: string; title?: string; original?: string } | { tracks: readonly { file: string; title: string }[]; title?: string; original?: string },
): string {
  const tracks = 'tracks' in o ? o.tracks : [{ file: o.audio, title: 'Only Track' }];
  return `type: ${tracks.length > 1 ? 'ep' : 'single'}
title: ${o.title ?? `Song ${catalogNumber}`}
artists: [{ name: Nina Vale, role: primary }]
label: Northern Lights Records
catalog_number: ${catalogNumber}
genre: Electronic
language: en
explicit: not_explicit
${o.original ? `original_release_date: "${o.original}"\n` : ''}p_line: { year: 2026, owner: Northern Lights Records }
c_line: { year: 2026, owner: Northern Lights Records }
tracks:
${tracks.map((t) => `  - file: ${t.file}\n    title: ${t.title}\n    audio_language: instrumental\n    contributors: [{ name: Nina Vale, role: composer }]`).join('\n')}
delivery:
  platforms: all
  territories: { mode: worldwide }
  release_date: "2030-01-11"
`;
}
