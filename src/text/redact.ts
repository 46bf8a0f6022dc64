/**
 * Strips what must not leave the operator's side from text that names URLs: credentials
 * (`user:password@`), query strings and fragments (tokens often travel there).
 */

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** One URL without userinfo, query and fragment; text that does not parse is returned as `scheme://…`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname === '/' && !url.replace(/[?#].*$/, '').endsWith('/') ? '' : u.pathname;
    return `${u.protocol}//${u.host}${path}`;
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/).*$/i, '$1…');
  }
}

/** Every URL in `text` passed through {@link redactUrl}. */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (m) => {
    const trail = /[.,;:!?)\]]+$/.exec(m)?.[0] ?? ''; // sentence punctuation after a URL
    return redactUrl(m.slice(0, m.length - trail.length)) + trail;
  });
}
