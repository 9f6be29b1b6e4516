import { useRef, useState } from 'preact/hooks';
import { del, get, post, type ApiKey } from '../api.js';
import { InputField, SelectField, SubmitButton, useFormAction } from '../forms.js';
import { ConfirmRemoval, RemoveButton, useRemoval } from '../removal.js';
import { Row, Table } from '../table.js';
import { Time } from '../time.js';
import { CopyButton, Empty, Loaded, MessageLine, useLoad, useMessages, type FieldMap } from '../ui.js';

/** The longest label the server takes (apps/gateway dashboard.schema.ts). */
const LABEL_MAX = 60;
const FIELDS: FieldMap = { label: { label: 'Label' }, mode: { label: 'Mode' } };
const MODES = [
  { value: 'live', words: 'live (charged, real providers)' },
  { value: 'test', words: 'test (sandbox data, never charged)' },
] as const;

export function KeysPage() {
  const [keys, reload] = useLoad(() => get<{ data: ApiKey[] }>('/keys'));
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<(ApiKey & { key: string }) | null>(null);
  const messages = useMessages();
  const revocation = useRemoval<ApiKey>({
    messages,
    remove: (key) => del<ApiKey>(`/keys/${encodeURIComponent(key.id)}`),
    removed: (key) => `Key ${key.label ? `"${key.label}" ` : ''}${key.prefix}… revoked.`,
    reload,
  });
  const creation = useFormAction(messages, FIELDS);
  const shownKey = useRef<HTMLOutputElement>(null);

  return (
    <section aria-labelledby="page-title">
      <p>
        A new key works beside the old ones until you revoke the old one; a revoked key is refused by the API within a
        second. Name each key after where it is used, so you know which one to revoke. An account keeps at most 25
        active keys; the list shows them and the 20 revoked last.
      </p>
      <form
        onSubmit={creation.onSubmit(
          () => {
            setCreated(null);
            const name = label.trim();
            return post<ApiKey & { key: string }>('/keys', { mode, ...(name ? { label: name } : {}) });
          },
          (key) => {
            setCreated(key);
            setLabel('');
            reload();
          },
        )}
      >
        <div class="grid">
          <InputField
            id="key-label"
            label="Label (optional)"
            maxLength={LABEL_MAX}
            placeholder="e.g. CI, Alice's laptop"
            value={label}
            onValue={setLabel}
          />
          <SelectField id="key-mode" label="Mode" value={mode} options={MODES} onValue={setMode} />
        </div>
        <SubmitButton busy={creation.busy}>Create key</SubmitButton>
      </form>
      <MessageLine messages={messages} />
      {created && (
        <article aria-labelledby="new-key-title" data-testid="new-key">
          <h2 id="new-key-title">
            Your new {created.mode} key{created.label ? ` "${created.label}"` : ''}
          </h2>
          <p>Copy it now: it is shown this once and never again.</p>
          <p class="new-key">
            <output aria-label="New API key" ref={shownKey}>
              {created.key}
            </output>
          </p>
          <div class="row-actions">
            <CopyButton text={created.key} label="Copy the new key" target={() => shownKey.current} />
            <button type="button" class="secondary outline" onClick={() => setCreated(null)}>
              I have copied it
            </button>
          </div>
        </article>
      )}
      <Loaded load={keys} what="keys">
        {({ data }) =>
          data.length === 0 ? (
            <Empty>No keys yet.</Empty>
          ) : (
            <Table
              region="Keys"
              caption="Keys of this account, newest first"
              columns={['Label', 'Prefix', 'Mode', 'Created', 'Status', { muted: 'Action' }]}
            >
              {data.map((key) => (
                <Row
                  key={key.id}
                  data-key-id={key.id}
                  cells={[
                    key.label ?? <span class="muted">none</span>,
                    <code>{key.prefix}…</code>,
                    key.mode,
                    <Time iso={key.created_at} />,
                    key.revoked_at ? (
                      <>
                        revoked <Time iso={key.revoked_at} />
                      </>
                    ) : (
                      'active'
                    ),
                    key.revoked_at ? null : (
                      <RemoveButton removal={revocation} row={key} label={`Revoke key ${key.prefix}`}>
                        Revoke
                      </RemoveButton>
                    ),
                  ]}
                />
              ))}
            </Table>
          )
        }
      </Loaded>
      <ConfirmRemoval removal={revocation} title="Revoke this key?" confirmLabel="Revoke key">
        <p>
          Key {revocation.asking?.label ? <strong>{revocation.asking.label}</strong> : null}{' '}
          <code>{revocation.asking?.prefix}…</code> will be refused by the API within a second, everywhere. This cannot
          be undone. If this dashboard session was opened with it, you will be signed out.
        </p>
      </ConfirmRemoval>
    </section>
  );
}
