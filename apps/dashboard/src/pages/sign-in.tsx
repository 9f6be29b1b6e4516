import { useState } from 'preact/hooks';
import { signIn, type SessionView } from '../api.js';
import { InputField, SubmitButton } from '../forms.js';
import { describe, ErrorNote } from '../ui.js';

export function SignInPage({
  notice,
  onSignedIn,
}: {
  notice: string | null;
  onSignedIn: (session: SessionView) => void;
}) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the notice (signed out, session ended) is about the last session: gone once a sign-in starts
  const [attempted, setAttempted] = useState(false);
  return (
    <main class="container" id="main">
      <article>
        <h1>Sign in to the dashboard</h1>
        {notice && !attempted && (
          <p role="status" class="notice">
            {notice}
          </p>
        )}
        <p>
          Paste a <strong>live</strong> API key (<code>svc_live_…</code>). It is exchanged once for a session cookie the
          page cannot read; the key is not kept in the browser.
        </p>
        <p class="muted">
          No key yet? The operator of the service issues your account and its first key; once signed in, you create,
          label and revoke keys here. See the <a href="/docs/quick-start">quick start</a> and the{' '}
          <a href="/docs">documentation</a>.
        </p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setBusy(true);
            setAttempted(true);
            setError(null);
            signIn(key.trim()).then(
              (session) => {
                setKey('');
                onSignedIn(session);
              },
              (problem: unknown) => {
                setError(describe(problem, { key: { label: 'API key', hint: 'a live API key, starting svc_live_' } }));
                setBusy(false);
              },
            );
          }}
        >
          <InputField
            id="api-key"
            label="Live API key"
            name="api-key"
            type="password"
            autoComplete="off"
            spellcheck={false}
            required
            value={key}
            onValue={setKey}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? 'sign-in-error' : undefined}
          />
          {error && (
            <div id="sign-in-error">
              <ErrorNote message={error} />
            </div>
          )}
          <SubmitButton busy={busy}>Sign in</SubmitButton>
        </form>
      </article>
    </main>
  );
}
