import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from './api.js';
import { problemInWords, type FieldMap } from './problem-words.js';

export type { FieldMap, FieldWords } from './problem-words.js';

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

/** An error in words; `fields` names a form's fields by their labels (problem-words.ts). */
export function describe(error: unknown, fields?: FieldMap): string {
  if (error instanceof ApiProblem) return problemInWords(error, fields);
  return error instanceof Error ? error.message : 'Something went wrong.';
}

export interface Messages {
  status: string | null;
  error: string | null;
  /** A new action starts: what the last one said no longer holds, so both go. */
  begin(): void;
  succeed(message: string): void;
  fail(problem: unknown, fields?: FieldMap): void;
  /** An error already in words. */
  failWith(message: string): void;
}

/** A page's one message line: a success or an error, never both, cleared when an action starts. */
export function useMessages(): Messages {
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    status,
    error,
    begin: () => {
      setStatus(null);
      setError(null);
    },
    succeed: (message) => {
      setError(null);
      setStatus(message);
    },
    fail: (problem, fields) => {
      setStatus(null);
      setError(describe(problem, fields));
    },
    failWith: (message) => {
      setStatus(null);
      setError(message);
    },
  };
}

export function MessageLine({ messages }: { messages: Messages }) {
  return (
    <>
      {messages.status && (
        <p role="status" class="notice">
          {messages.status}
        </p>
      )}
      {messages.error && <ErrorNote message={messages.error} />}
    </>
  );
}

/**
 * Copies `text` to the clipboard. Where the page may not write it (a plain-http address other
 * than this machine), the text is selected instead and the button says to press Ctrl+C.
 */
export function CopyButton({
  text,
  label,
  target,
}: {
  text: string;
  label: string;
  target?: () => HTMLElement | null;
}) {
  const [said, setSaid] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const say = (words: string) => {
    setSaid(words);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setSaid(null), 4000);
  };
  return (
    <span class="row-actions">
      <button
        type="button"
        class="secondary"
        aria-label={label}
        onClick={() => {
          const fallback = () => {
            const element = target?.();
            if (element) getSelection()?.selectAllChildren(element);
            say('Selected: press Ctrl+C (⌘C on a Mac) to copy.');
          };
          if (!navigator.clipboard || !window.isSecureContext) return fallback();
          navigator.clipboard.writeText(text).then(() => say('Copied.'), fallback);
        }}
      >
        Copy
      </button>
      <span role="status" class="muted">
        {said}
      </span>
    </span>
  );
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
export function Loaded<T>({
  load,
  what,
  children,
}: {
  load: Load<T>;
  what: string;
  children: (value: T) => ComponentChildren;
}) {
  if (load.state === 'loading') return <Loading what={what} />;
  if (load.state === 'error') return <ErrorNote message={load.message} />;
  return <>{children(load.value)}</>;
}

/**
 * A confirmation in a modal <dialog>: focus goes into it, Escape cancels. `destructive` (revoke,
 * delete) styles the confirming button as such.
 */
export function Confirm({
  open,
  title,
  children,
  confirmLabel,
  destructive = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
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
          <button type="button" class={destructive ? 'danger' : undefined} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
