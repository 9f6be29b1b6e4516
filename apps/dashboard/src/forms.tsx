import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import type { FieldMap, Messages } from './ui.js';

/** `Omit` over each member of a union: an input's attributes are one set for each kind (`type`) of input. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An input with its label around it; `onValue` gets what is typed. */
export function InputField({
  id,
  label,
  onValue,
  ...input
}: OmitEach<InputHTMLAttributes, 'id' | 'onInput'> & {
  id: string;
  label: string;
  onValue: (value: string) => void;
}) {
  return (
    <label for={id}>
      {label}
      <input id={id} {...input} onInput={(e) => onValue((e.target as HTMLInputElement).value)} />
    </label>
  );
}

/** Where the service delivers the events of a watch or an async search. */
export function WebhookUrlField({
  id,
  label,
  value,
  onValue,
}: {
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <InputField
      id={id}
      label={label}
      type="url"
      required
      placeholder="https://example.com/hooks/jobs"
      value={value}
      onValue={onValue}
    />
  );
}

/** A drop-down with its label around it, each option a value and its meaning in words. */
export function SelectField<V extends string>({
  id,
  label,
  value,
  options,
  onValue,
}: {
  id: string;
  label: string;
  value: V;
  options: readonly { value: V; words: string }[];
  onValue: (value: V) => void;
}) {
  return (
    <label for={id}>
      {label}
      <select id={id} value={value} onChange={(e) => onValue((e.target as HTMLSelectElement).value as V)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.words}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A form's submit button, busy and not to be pressed again while the form's action runs. */
export function SubmitButton({
  busy,
  class: kind,
  children,
}: {
  busy: boolean;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <button type="submit" class={kind} aria-busy={busy ? 'true' : undefined} disabled={busy}>
      {children}
    </button>
  );
}

/**
 * A form whose action runs one at a time: busy until the server answers, the page's message line
 * cleared when it starts and told a refusal in words, `fields` naming the form's fields.
 */
export function useFormAction(messages: Messages, fields: FieldMap) {
  const [busy, setBusy] = useState(false);
  /** The form's onSubmit: `send()` starts the action, `done` takes the server's answer. */
  const onSubmit =
    <T,>(send: () => Promise<T>, done: (answer: T) => void) =>
    (event: Event) => {
      event.preventDefault();
      setBusy(true);
      messages.begin();
      send().then(
        (answer) => {
          done(answer);
          setBusy(false);
        },
        (problem: unknown) => {
          messages.fail(problem, fields);
          setBusy(false);
        },
      );
    };
  return { busy, onSubmit };
}
