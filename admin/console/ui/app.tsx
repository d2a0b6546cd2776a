import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, session, shownError, type ShownError } from './api.js';
import { ErrorBox, Field } from './components.js';
import { SelectionProvider } from './selection.js';
import { VIEWS } from './views/index.js';

const routeOf = () => window.location.hash.replace(/^#\/?/, '') || VIEWS[0]!.path;

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<ShownError | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    session.signIn(token.trim());
    try {
      // Any operator call proves the token; a refused one is not kept.
      await api.organizations.list.query();
      onSignedIn();
    } catch (err) {
      session.signOut();
      const shown = shownError(err);
      setError(shown.code === 'UNAUTHORIZED' ? { ...shown, message: `The admin token was refused: ${shown.message}` } : shown);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>svc operator console</h1>
      <form
        aria-label="Sign in"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label="Admin token" hint="The content of <SVC_DATA_DIR>/admin-token (SVC_ADMIN_TOKEN). Kept in this tab only.">
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              type="password"
              name="token"
              autoComplete="off"
              required
              value={token}
              onInput={(e) => setToken(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
      </form>
      <ErrorBox error={error} />
    </main>
  );
}

export function App() {
  const [signedIn, setSignedIn] = useState(() => session.token() !== null);
  const [route, setRoute] = useState(routeOf);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const onHash = () => setRoute(routeOf());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  // A new view moves focus to its heading, so keyboard and screen-reader users start there.
  useLayoutEffect(() => heading.current?.focus(), [route]);

  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const view = VIEWS.find((v) => v.path === route) ?? VIEWS[0]!;
  return (
    <SelectionProvider>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">svc operator console</span>
        <button
          type="button"
          onClick={() => {
            session.signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((v) => (
              <li key={v.path}>
                <a href={`#/${v.path}`} aria-current={v === view ? 'page' : undefined}>
                  {v.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <h1 ref={heading} tabIndex={-1}>
            {view.title}
          </h1>
          <view.component key={view.path} />
        </main>
      </div>
    </SelectionProvider>
  );
}
