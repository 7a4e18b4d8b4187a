// A complete, submittable release file (YAML) for the `release apply` tests: one track, the audio
// given by absolute path.
export function releaseYaml(catalogNumber: string, o: { audio: string; title?: string; original?: string }): string {
  return `type: single
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
  - file: ${o.audio}
    title: Only Track
    audio_language: instrumental
    contributors: [{ name: Nina Vale, role: composer }]
delivery:
  platforms: all
  territories: { mode: worldwide }
  release_date: "2030-01-11"
`;
}
