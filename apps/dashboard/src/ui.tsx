import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiProblem } from './api.js';

export type Load<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; value: T };

/** Runs `fetcher` now and whenever `reload()` is called; the page shows each state in words. */
export function useLoad<T>(fetcher: () => Promise<T>, deps: unknown[] = []): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    fetcher().then(
      (value) => live && setLoad({ state: 'ready', value }),
      (error: unknown) => live && setLoad({ state: 'error', message: describe(error) }),
    );
    return () => {
      live = false;
    };
  }, [tick, ...deps]);
  return [load, useCallback(() => setTick((n) => n + 1), [])];
}

export function describe(error: unknown): string {
  if (error instanceof ApiProblem) return error.message;
  return error instanceof Error ? error.message : 'Something went wrong.';
}

export function Loading({ what }: { what: string }) {
  return (
    <p aria-busy="true" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ message }: { message: string }) {
  return (
    <p role="alert" class="error">
      <strong>Error:</strong> {message}
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="muted">{children}</p>;
}

/** The states of a load, then `children(value)` once ready. */
export function Loaded<T>({ load, what, children }: { load: Load<T>; what: string; children: (value: T) => ComponentChildren }) {
  if (load.state === 'loading') return <Loading what={what} />;
  if (load.state === 'error') return <ErrorNote message={load.message} />;
  return <>{children(load.value)}</>;
}

/** A confirmation in a modal <dialog>: focus goes into it, Escape cancels. */
export function Confirm({ open, title, children, confirmLabel, onConfirm, onCancel }: { open: boolean; title: string; children: ComponentChildren; confirmLabel: string; onConfirm: () => void; onCancel: () => void }) {
  const [dialog, setDialog] = useState<HTMLDialogElement | null>(null);
  useEffect(() => {
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open, dialog]);
  return (
    <dialog ref={setDialog} aria-labelledby="confirm-title" onClose={onCancel}>
      <article>
        <h2 id="confirm-title">{title}</h2>
        {children}
        <footer>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}

/**
 * Paging by the server's cursors. `cursors` is the trail of cursors that led to the page shown
 * (empty on the first page, the last one the page's own), so going back needs no cursor of its own.
 */
export function CursorPager({ label, cursors, setCursors, next, back, forward }: { label: string; cursors: string[]; setCursors: (cursors: string[]) => void; next: string | null; back: string; forward: string }) {
  return (
    <nav aria-label={label} class="row-actions">
      <button type="button" class="secondary" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
        {back}
      </button>
      <button type="button" class="secondary" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
        {forward}
      </button>
    </nav>
  );
}
