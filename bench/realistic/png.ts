/**
 * Looking at a returned plot: the PNG header is read here; the pixels are read in the sandbox by
 * a small matplotlib/numpy script (the same Python the programs use), which finds bars (runs of
 * coloured columns standing on a common baseline) and traces a coloured curve.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Artifact, Executor } from '../../src/sandbox/types.js';

/** Width and height in pixels of a PNG file, or undefined when it is not a PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** One bar found in a chart. Pixel units; `rgb` is its median colour, 0..1 per channel. */
export interface Bar {
  /** Position along the category axis (first bar: smallest), in px. */
  start: number;
  /** Length from the baseline, in px. */
  length: number;
  rgb: [number, number, number];
}

/** What the sandbox script reports about an image. */
export interface PngFacts {
  width: number;
  height: number;
  /** Share of pixels that are not near-white, 0..1. */
  inked: number;
  /** Bars of saturated colour standing on the bottom (vertical bars) and on the left (horizontal bars). */
  bars: { vertical: Bar[]; horizontal: Bar[] };
  /** Pixel counts of pure-ish colours. */
  pixels: { red: number; blue: number; saturated: number };
  /**
   * The red curve (its largest connected piece, so a legend's sample line is left out): its row
   * (px from the top, mean of its pixels) at 21 evenly spaced columns across its horizontal extent,
   * null where the column has none; empty when there is no red.
   */
  redCurve: (number | null)[];
}

const SCRIPT = String.raw`
import json
import numpy as np
import matplotlib.image as mpimg
a = mpimg.imread("image.png")
if a.dtype != np.float32 and a.dtype != np.float64:
    a = a / 255.0
if a.ndim == 2:
    a = np.stack([a, a, a], axis=-1)
if a.shape[2] == 4:  # composite on white
    a = a[..., :3] * a[..., 3:4] + (1 - a[..., 3:4])
a = a[..., :3]
r, g, b = a[..., 0], a[..., 1], a[..., 2]
sat = (a.max(-1) - a.min(-1)) > 0.25
red = (r > 0.6) & (g < 0.45) & (b < 0.45)
blue = (b > 0.45) & (b > r + 0.2) & (b > g + 0.05)

def bars(m, img):
    if not m.any():
        return []
    h = m.shape[0]
    rows = np.arange(h)[:, None]
    bottom = np.where(m, rows, -1).max(0)
    top = np.where(m, rows, h).min(0)
    base = bottom.max()
    on = bottom >= base - 2
    out, c = [], 0
    while c < m.shape[1]:
        if not on[c]:
            c += 1
            continue
        s = c
        while c < m.shape[1] and on[c]:
            c += 1
        if c - s >= 3:
            t = int(np.median(top[s:c]))
            px = img[t:base + 1, s:c][m[t:base + 1, s:c]]
            out.append({"start": int(s), "length": int(base - t + 1), "rgb": [float(x) for x in np.median(px, 0)]})
    return out

def main_line(m):
    # the largest 8-connected piece: a legend's sample line is a separate small piece; a dashed
    # curve has no large piece, then every pixel is kept
    from scipy import ndimage
    lab, n = ndimage.label(m, structure=np.ones((3, 3)))
    if n < 2:
        return m
    sizes = ndimage.sum(m, lab, range(1, n + 1))
    big = lab == (int(np.argmax(sizes)) + 1)
    span = lambda x: np.ptp(np.where(x.any(0))[0])
    return big if span(big) >= 0.5 * span(m) else m

def curve(m):
    m = main_line(m)
    cols = np.where(m.any(0))[0]
    if len(cols) == 0:
        return []
    c0, c1 = cols.min(), cols.max()
    out = []
    for i in range(21):
        c = int(round(c0 + (c1 - c0) * i / 20))
        ys = np.where(m[:, max(c - 1, 0):c + 2].any(1))[0]
        out.append(float(ys.mean()) if len(ys) else None)
    return out

print(json.dumps({
    "width": int(a.shape[1]), "height": int(a.shape[0]),
    "inked": float((a.min(-1) < 0.9).mean()),
    "bars": {"vertical": bars(sat, a),
             "horizontal": bars(sat.T[::-1, :], np.transpose(a, (1, 0, 2))[::-1, :, :])},
    "pixels": {"red": int(red.sum()), "blue": int(blue.sum()), "saturated": int(sat.sum())},
    "redCurve": curve(red),
}))
`;

/**
 * Reads a PNG artifact's pixels in the sandbox.
 * @throws {Error} when the script fails (e.g. the file is not an image), with its stderr.
 */
export async function inspectPng(executor: Executor, png: Artifact): Promise<PngFacts> {
  const scratch = mkdtempSync(join(tmpdir(), 'realistic-png-'));
  try {
    const result = await executor.execute(SCRIPT, {
      inputFiles: [{ name: 'image.png', content: readFileSync(png.path) }],
      artifactDir: scratch,
      limits: { wallTimeS: 30, cpuTimeS: 30 },
    });
    if (!result.success) throw new Error(`cannot read ${png.name} as an image: ${result.stderr.trim().split('\n').at(-1) ?? ''}`);
    return JSON.parse(result.stdout) as PngFacts;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
