/**
 * Finds a wheel in a Python package index through its "simple" API: the JSON form (PEP 691,
 * `application/vnd.pypi.simple.v1+json`) when the index offers it, else the HTML form (PEP 503:
 * one `<a href="URL#sha256=HEX">file name</a>` per file).
 * Source: https://peps.python.org/pep-0691/ and https://peps.python.org/pep-0503/.
 */

/** One file of a project in the index. */
export interface IndexFile {
  filename: string;
  /** Absolute URL. */
  url: string;
  /** sha256 the index gives for the file (hex), when it gives one. */
  sha256?: string;
}

/** A GET that throws on anything but a 200 answer. */
export type Getter = (url: string, headers: Record<string, string>) => Promise<Response>;

/** PEP 503 name normalisation: runs of `-`, `_`, `.` become `-`, lower case. */
export function normalizeProject(name: string): string {
  return name.replace(/[-_.]+/g, '-').toLowerCase();
}

/** Files listed by a simple-index page (JSON or HTML), with URLs made absolute against `pageUrl`. */
export function parseIndexPage(body: string, contentType: string, pageUrl: string): IndexFile[] {
  if (/json/i.test(contentType)) {
    const data = JSON.parse(body) as { files?: { filename: string; url: string; hashes?: Record<string, string> }[] };
    return (data.files ?? []).map((f) => ({ filename: f.filename, url: new URL(f.url, pageUrl).href, sha256: f.hashes?.sha256 }));
  }
  const files: IndexFile[] = [];
  for (const m of body.matchAll(/<a\s[^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/gi)) {
    const href = m[1]!.replace(/&amp;/g, '&');
    const url = new URL(href, pageUrl);
    const sha256 = /(?:^|&)sha256=([0-9a-f]{64})/i.exec(url.hash.slice(1))?.[1];
    url.hash = '';
    files.push({ filename: m[2]!.trim(), url: url.href, sha256 });
  }
  return files;
}

/**
 * The wheel of `project==version` in the index at `index`.
 * @throws {Error} when the index cannot be read or lists no wheel for that version.
 */
export async function findWheel(index: string, project: string, version: string, get: Getter): Promise<IndexFile> {
  const pageUrl = `${index.replace(/\/+$/, '')}/${normalizeProject(project)}/`;
  const res = await get(pageUrl, { accept: 'application/vnd.pypi.simple.v1+json, text/html;q=0.1' });
  const files = parseIndexPage(await res.text(), res.headers.get('content-type') ?? '', pageUrl);
  const prefix = `${project.replace(/-/g, '_')}-${version}-`.toLowerCase();
  const wheel = files.find((f) => f.filename.toLowerCase().startsWith(prefix) && f.filename.endsWith('.whl'));
  if (!wheel) throw new Error(`${pageUrl} lists no wheel of ${project} ${version}`);
  return wheel;
}
