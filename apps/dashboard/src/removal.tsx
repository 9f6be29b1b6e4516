import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Confirm, type Messages } from './ui.js';

/**
 * Taking one row of a list away for good (revoking a key, deleting a watch): the row's button asks,
 * a dialog confirms, and the page's message line tells how it went.
 */
export interface Removal<T> {
  /** The row the dialog asks about; null while the dialog is closed. */
  asking: T | null;
  ask: (row: T) => void;
  cancel: () => void;
  confirm: () => void;
}

export function useRemoval<T>({
  messages,
  remove,
  removed,
  reload,
}: {
  messages: Messages;
  /** Asks the server to take the row away. */
  remove: (row: T) => Promise<unknown>;
  /** The success, in words. */
  removed: (row: T) => string;
  /** Reads the list again once the row is gone. */
  reload: () => void;
}): Removal<T> {
  const [asking, setAsking] = useState<T | null>(null);
  return {
    asking,
    ask: (row) => {
      messages.begin();
      setAsking(row);
    },
    cancel: () => setAsking(null),
    confirm: () => {
      const row = asking!;
      setAsking(null);
      messages.begin();
      remove(row).then(
        () => {
          messages.succeed(removed(row));
          reload();
        },
        (problem: unknown) => messages.fail(problem),
      );
    },
  };
}

/** The row's button that asks to take it away; red, as every destructive action is. */
export function RemoveButton<T>({
  removal,
  row,
  label,
  children,
}: {
  removal: Removal<T>;
  row: T;
  /** The button's name for assistive technology, naming the row. */
  label: string;
  children: ComponentChildren;
}) {
  return (
    <button type="button" class="danger outline" aria-label={label} onClick={() => removal.ask(row)}>
      {children}
    </button>
  );
}

/** The dialog that confirms a removal; `children` say what taking the row away does. */
export function ConfirmRemoval<T>({
  removal,
  title,
  confirmLabel,
  children,
}: {
  removal: Removal<T>;
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
}) {
  return (
    <Confirm
      open={removal.asking !== null}
      title={title}
      confirmLabel={confirmLabel}
      destructive
      onCancel={removal.cancel}
      onConfirm={removal.confirm}
    >
      {children}
    </Confirm>
  );
}
