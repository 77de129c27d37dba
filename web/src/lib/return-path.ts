/**
 * Where to go after signing in. Only a same-origin path is accepted (no open redirect):
 * it must start with one "/", and resolving it against our origin must stay on our origin.
 */
export const RETURN_PARAM = 'next';

export function safeReturnPath(raw: string | null | undefined, fallback = '/'): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  // A control character or backslash can turn it into a scheme-relative URL in some browsers.
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return fallback;
  }
  try {
    const base = 'http://taskwise.invalid';
    const url = new URL(raw, base);
    if (url.origin !== base) return fallback;
    // Dot segments are resolved by URL: "/.//evil.example" and "/%2e//evil.example" come out
    // as "//evil.example", which a browser reads as another host. Check the result too.
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith('//') ? fallback : path;
  } catch {
    return fallback;
  }
}

/** `/login?next=/tasks`, or plain `/login` when the return path is home. */
export function loginPathFor(returnTo: string): string {
  const path = safeReturnPath(returnTo);
  return path === '/' ? '/login' : `/login?${RETURN_PARAM}=${encodeURIComponent(path)}`;
}
