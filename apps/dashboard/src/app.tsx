import { useEffect, useState } from 'preact/hooks';
import { resume, signOut, whenSignedOut, type SessionView } from './api.js';
import { AsyncSearchesPage } from './pages/async-searches.js';
import { DeliveriesPage } from './pages/deliveries.js';
import { EventsPage } from './pages/events.js';
import { KeysPage } from './pages/keys.js';
import { ProvidersPage } from './pages/providers.js';
import { SandboxPage } from './pages/sandbox.js';
import { SignInPage } from './pages/sign-in.js';
import { UsagePage } from './pages/usage.js';
import { WatchesPage } from './pages/watches.js';
import { WebhookEndpointsPage } from './pages/webhook-endpoints.js';
import { describe, ErrorNote, Loading } from './ui.js';

const PAGES = [
  { path: 'keys', title: 'API keys', Page: KeysPage },
  { path: 'usage', title: 'Usage', Page: UsagePage },
  { path: 'searches', title: 'Async searches', Page: AsyncSearchesPage },
  { path: 'watches', title: 'Watches', Page: WatchesPage },
  { path: 'events', title: 'Event feed', Page: EventsPage },
  { path: 'deliveries', title: 'Webhook deliveries', Page: DeliveriesPage },
  { path: 'endpoints', title: 'Webhook endpoints', Page: WebhookEndpointsPage },
  { path: 'providers', title: 'Providers', Page: ProvidersPage },
  { path: 'sandbox', title: 'Sandbox explorer', Page: SandboxPage },
] as const;

function currentPath(): string {
  const path = location.hash.replace(/^#\/?/, '');
  return PAGES.some((page) => page.path === path) ? path : 'keys';
}

export function App() {
  const [session, setSession] = useState<SessionView | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [path, setPath] = useState(currentPath());
  const [notice, setNotice] = useState<string | null>(null);
  const [signOutProblem, setSignOutProblem] = useState<string | null>(null);

  useEffect(() => {
    whenSignedOut(() => {
      setSession(null);
      setNotice('Your session has ended (signed out, expired, or its key was revoked). Sign in again.');
    });
    resume().then(setSession, (error: unknown) => setProblem(describe(error)));
    const onHash = () => setPath(currentPath());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const page = PAGES.find((p) => p.path === path)!;
  useEffect(() => {
    document.title = session ? `${page.title} · Dashboard` : 'Sign in · Dashboard';
    // Move focus to the page heading on navigation so keyboard and screen-reader users land on it.
    document.getElementById('page-title')?.focus();
  }, [path, session]);

  if (problem) {
    return (
      <main class="container">
        <ErrorNote message={problem} />
      </main>
    );
  }
  if (session === undefined) {
    return (
      <main class="container">
        <Loading what="the dashboard" />
      </main>
    );
  }
  if (session === null) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(s) => {
          setNotice(null);
          setSession(s);
        }}
      />
    );
  }
  const Page = page.Page;
  return (
    <>
      {/* focuses the content without touching the hash, which names the page */}
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="container app-header">
        <nav aria-label="Dashboard">
          <ul>
            <li>
              <strong>Job-data API</strong>
            </li>
          </ul>
          <ul>
            {PAGES.map((p) => (
              <li key={p.path}>
                <a href={`#/${p.path}`} aria-current={p.path === path ? 'page' : undefined}>
                  {p.title}
                </a>
              </li>
            ))}
            <li>
              <a href="/docs">Docs</a>
            </li>
            <li>
              <button
                type="button"
                class="outline secondary"
                onClick={() => {
                  setSignOutProblem(null);
                  signOut().then(
                    () => {
                      setNotice('You are signed out.');
                      setSession(null);
                    },
                    (error: unknown) => setSignOutProblem(`You are still signed in. ${describe(error)}`),
                  );
                }}
              >
                Sign out
              </button>
            </li>
          </ul>
        </nav>
        {signOutProblem && <ErrorNote message={signOutProblem} />}
        <p class="muted">
          Signed in to account <code>{session.account_id}</code> with key <code>{session.key_prefix}…</code>
        </p>
      </header>
      <main class="container" id="main" tabIndex={-1}>
        <h1 id="page-title" tabIndex={-1}>
          {page.title}
        </h1>
        <Page />
      </main>
    </>
  );
}
