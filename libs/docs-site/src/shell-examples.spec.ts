import { callsCurl, shellCommands, shellExamples } from './shell-examples.js';

describe('shellExamples', () => {
  it('finds every sh, bash and shell fence in page order, with the line it starts on, and no other language', () => {
    const page = [
      '# Page', // 1
      '',
      '```sh', // 3
      'curl -s $B/account',
      '```',
      '',
      '```json',
      '{"a": 1}',
      '```',
      '',
      '- a list item', // 11
      '',
      '  ~~~bash title="x"', // 13
      '  curl -s $B/providers',
      '  ~~~',
      '',
      '```shell', // 17
      'npm test',
      '```',
      '',
      '```',
      'curl -s plain-fence',
      '```',
    ].join('\n');
    expect(shellExamples(page)).toEqual([
      { line: 3, commands: ['curl -s $B/account'] },
      { line: 13, commands: ['curl -s $B/providers'] },
      { line: 17, commands: ['npm test'] },
    ]);
  });
});

describe('shellCommands', () => {
  it('keeps continuation lines in their command and drops comments and blank lines', () => {
    const text = [
      'B=http://127.0.0.1:8080/v1',
      '# 1. Sandbox: no key, the plan\'s "free" page',
      '',
      "curl -s $B/sandbox/jobs/search -H 'Content-Type: application/json' \\",
      '  -d \'{"limit":3}\'   # free',
      'K=svc_live_...   # the demo live key',
    ].join('\n');
    expect(shellCommands(text)).toEqual([
      'B=http://127.0.0.1:8080/v1',
      "curl -s $B/sandbox/jobs/search -H 'Content-Type: application/json' \\\n  -d '{\"limit\":3}'",
      'K=svc_live_...',
    ]);
  });

  it('keeps a # that does not start a word or stands inside quotes; a comment inside a substitution goes', () => {
    expect(shellCommands('curl "$B/a#b" -d \'{"x":"# not a comment"}\' -H "K: $(echo a # b\n)" # gone')).toEqual([
      'curl "$B/a#b" -d \'{"x":"# not a comment"}\' -H "K: $(echo a\n)"',
    ]);
    expect(shellCommands('echo a#b ${#x}')).toEqual(['echo a#b ${#x}']);
  });

  it('reads a quoted body over several lines, and a substitution with quotes of its own, as one command', () => {
    const text = [
      "curl -s $B/jobs/search -H \"Idempotency-Key: $(node -p 'crypto.randomUUID()')\" -d '{",
      '  "limit": 2',
      "}'",
      'echo "$(printf "%s" "$(date)")"',
    ].join('\n');
    expect(shellCommands(text)).toEqual([
      'curl -s $B/jobs/search -H "Idempotency-Key: $(node -p \'crypto.randomUUID()\')" -d \'{\n  "limit": 2\n}\'',
      'echo "$(printf "%s" "$(date)")"',
    ]);
  });

  it('refuses what cannot be pasted command by command: a here-document, an unclosed quote', () => {
    expect(() => shellCommands('cat <<EOF\nx\nEOF')).toThrow(/here-document/);
    expect(() => shellCommands('curl -d \'{"a":1}')).toThrow(/ends inside single/);
    expect(shellCommands('grep x <<< "$y"')).toEqual(['grep x <<< "$y"']);
  });
});

describe('callsCurl', () => {
  it('is true for a curl command, alone or after an assignment or in a substitution, not for a longer name', () => {
    expect(callsCurl('curl -s $B/account')).toBe(true);
    expect(callsCurl('X=$(curl -s $B/account)')).toBe(true);
    expect(callsCurl('A=1; curl -s $A')).toBe(true);
    expect(callsCurl('npm run up    # a demo key and a curl')).toBe(false);
    expect(callsCurl('mycurl -s x')).toBe(false);
  });
});
