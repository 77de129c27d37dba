import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Provider for tests: `oidc-provider` (an independent, certified implementation)
 * on 127.0.0.1, with one confidential client. Its login page is ours (it is the provider's
 * business how people sign in to it): a form naming the account to sign in as, which a test
 * posts to (`loginAs`) or a browser submits. Consent is given with the login, as an
 * organisation's provider does for its own apps.
 */

export interface ProviderAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  /**
   * What the ID token carries: only `sub` (the default, as providers that also issue an access
   * token often do, leaving the rest to userinfo), every claim, or every claim but
   * `email_verified` (a provider that says it only at userinfo, or not at all).
   */
  idToken?: 'sub' | 'all' | 'without-email-verified';
}

export interface TestProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The accounts the provider knows, by subject; add before signing in. */
  readonly accounts: Map<string, ProviderAccount>;
  /** Stops answering (a provider that is down); `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const readForm = async (req: IncomingMessage): Promise<URLSearchParams> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Starts a provider whose client may redirect to `redirectUris`. `anyLoopbackPort`: a
 * loopback redirect URI matches on any port (RFC 8252 7.3, for a "native" client), for an app
 * whose port is chosen when it starts.
 */
export async function startTestProvider(redirectUris: string[], { port = 0, anyLoopbackPort = false } = {}): Promise<TestProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const clientId = 'taskwise-test';
  const clientSecret = 'taskwise-test-secret-0123456789abcdef';
  let server: Server | undefined;
  let issuer = '';
  // Made once the port (and so the issuer) is known; the server's handler reads it from here.
  const made: { provider?: Provider } = {};

  const listen = async (onPort: number) => {
    server = createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', issuer);
        const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
        const provider = made.provider;
        if (provider === undefined) throw new Error('the provider is not made yet');
        if (match === null) {
          await provider.callback()(req, res);
          return;
        }
        const details = await provider.interactionDetails(req, res);
        if (match[2] === undefined) {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(
            `<!doctype html><title>Test provider</title><h1>Test provider sign-in</h1>` +
              `<form method="post" action="/interaction/${escapeHtml(details.uid)}/login">` +
              `<p><label>Subject <input name="sub" value="${escapeHtml([...accounts.keys()].at(-1) ?? '')}"></label></p>` +
              `<p><label>E-mail <input name="email" type="email"></label></p>` +
              `<p><label>Name <input name="name"></label></p>` +
              `<p><label><input name="email_verified" type="checkbox" value="true"> E-mail verified</label></p>` +
              `<button type="submit">Continue</button></form>`,
          );
          return;
        }
        const form = await readForm(req);
        const sub = form.get('sub') ?? '';
        const email = form.get('email') ?? '';
        // An address typed at the login page makes (or changes) the account: who signs in is the test's choice.
        if (sub !== '' && email !== '') {
          accounts.set(sub, { ...accounts.get(sub), sub, email, email_verified: form.get('email_verified') === 'true', ...(form.get('name') ? { name: form.get('name') ?? '' } : {}) });
        }
        if (!accounts.has(sub)) {
          await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'unknown account' });
          return;
        }
        const grant = new provider.Grant({ accountId: sub, clientId });
        grant.addOIDCScope(typeof details.params.scope === 'string' ? details.params.scope : 'openid');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => server?.listen(onPort, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  const actualPort = await listen(port);
  issuer = `http://127.0.0.1:${actualPort}`;
  made.provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
        ...(anyLoopbackPort ? { application_type: 'native' as const } : {}),
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries what each account's `idToken` says (claims() below), not only `sub`.
    conformIdTokenClaims: false,
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => {
      const account = accounts.get(sub);
      if (account === undefined) return undefined;
      const { idToken = 'sub', ...claims } = account;
      return {
        accountId: sub,
        claims: (use: string) => {
          if (use !== 'id_token' || idToken === 'all') return { ...claims };
          if (idToken === 'sub') return { sub };
          const { email_verified: _left, ...rest } = claims;
          return rest;
        },
      };
    },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    async stop() {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => {
        server?.close(() => {
          resolve();
        });
      });
    },
    async start() {
      await listen(actualPort);
    },
  };
}

/** The JSON OIDC_PROVIDERS takes for this provider. */
export const providersSetting = (op: TestProvider, id = 'test', name = 'Test ID') =>
  JSON.stringify([{ id, name, issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret }]);

/** Cookies of one party, by name (a minimal jar: enough for a provider on one host). */
export class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at < 1) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Walks the browser's part at the provider: from its authorization URL through its login page
 * (signing in as `sub`) to the redirect back to the app; answers that URL (the callback, with
 * code and state, or with an error).
 */
export async function signInAtProvider(authorizationUrl: string, sub: string, appOrigin: string): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(appOrigin)) return new URL(url);
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(body === undefined ? {} : { body }),
    });
    jar.take(res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (location !== null) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      await res.arrayBuffer();
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || action === undefined) throw new Error(`the provider answered ${res.status} at ${url}: ${html.slice(0, 300)}`);
    url = new URL(action, url).href;
    method = 'POST';
    body = new URLSearchParams({ sub }).toString();
  }
  throw new Error('too many redirects at the provider');
}
