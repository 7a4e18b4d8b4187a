// Writes a 16-bit 44.1 kHz stereo PCM WAV to stdout: a sine tone that sounds for one second in
// every two (the silent half compresses to almost nothing in FLAC).
// Usage: node examples/make-tone.mjs <hz> <seconds> > tone.wav
const [hz, seconds] = process.argv.slice(2).map(Number);
const rate = 44100,
  amp = 4000,
  frames = Math.round(rate * seconds),
  data = Buffer.alloc(frames * 4);
for (let i = 0; i < frames; i++) {
  const on = Math.floor(i / rate) % 2 === 0;
  const v = on ? Math.round(amp * Math.sin((2 * Math.PI * hz * i) / rate)) : 0;
  data.writeInt16LE(v, i * 4);
  data.writeInt16LE(v, i * 4 + 2);
}
const h = Buffer.alloc(44);
h.write('RIFF', 0);
h.writeUInt32LE(36 + data.length, 4);
h.write('WAVE', 8);
h.write('fmt ', 12);
h.writeUInt32LE(16, 16);
h.writeUInt16LE(1, 20);
h.writeUInt16LE(2, 22);
h.writeUInt32LE(rate, 24);
h.writeUInt32LE(rate * 4, 28);
h.writeUInt16LE(4, 32);
h.writeUInt16LE(16, 34);
h.write('data', 36);
h.writeUInt32LE(data.length, 40);
process.stdout.write(Buffer.concat([h, data]));
