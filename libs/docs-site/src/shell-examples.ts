import MarkdownItCallable from 'markdown-it';

/** One fenced shell block of a page, as a reader pastes it: its commands in order. */
export interface ShellExample {
  /** The 1-based line of the opening fence in the Markdown source. */
  line: number;
  /** Each command as bash reads it: continuation lines kept, comments dropped, blank lines left out. */
  commands: string[];
}

/** The fence languages a reader pastes into a shell. */
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);

const parser = new MarkdownItCallable({ html: false });

/**
 * Every fenced `sh`/`bash`/`shell` block of a Markdown page, in page order, cut into commands.
 * The blocks are found by the same Markdown parser that renders the guides, so a block inside a
 * list item or fenced with `~~~` counts exactly as a reader sees it.
 */
export function shellExamples(markdown: string): ShellExample[] {
  return parser
    .parse(markdown, {})
    .filter((token) => token.type === 'fence' && SHELL_LANGUAGES.has(token.info.trim().split(/\s+/)[0] ?? ''))
    .map((token) => ({ line: (token.map?.[0] ?? 0) + 1, commands: shellCommands(token.content) }));
}

/** Whether a command calls the API with curl (as a word, not inside another name). */
export const callsCurl = (command: string): boolean => /(^|[\s;&|(`])curl\s/.test(command);

type Context = 'single' | 'double' | 'substitution';

/**
 * Cuts shell text into the commands bash would read one by one: a newline ends a command unless it
 * is escaped (`\` at the end of the line) or inside quotes or a `$( )`. Comments (a `#` that starts a
 * word outside quotes) are dropped, so what remains is what runs. Here-documents are refused: their
 * lines are data, not commands, and cutting them would change what a reader's paste does.
 */
export function shellCommands(text: string): string[] {
  const commands: string[] = [];
  const stack: Context[] = [];
  let current = '';
  const top = () => stack[stack.length - 1];
  const finish = () => {
    const command = current.replace(/[ \t]+$/gm, '').trim();
    if (command) commands.push(command);
    current = '';
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const context = top();
    if (context === 'single') {
      current += char;
      if (char === "'") stack.pop();
      continue;
    }
    if (char === '\\' && i + 1 < text.length) {
      current += char + text[i + 1];
      i += 1;
      continue;
    }
    if (context === 'double') {
      current += char;
      if (char === '"') stack.pop();
      else if (char === '$' && text[i + 1] === '(') {
        current += '(';
        i += 1;
        stack.push('substitution');
      }
      continue;
    }
    // outside quotes: at the top level or inside a $( ) substitution
    const wordStart = current === '' || /[\s;&|(]$/.test(current);
    if (char === '#' && wordStart) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i += 1;
      continue;
    }
    if (char === '<' && text[i + 1] === '<' && text[i + 2] !== '<' && text[i - 1] !== '<')
      throw new Error(`a here-document in a shell example cannot be pasted line by line: ${current.trim()} <<...`);
    if (char === '\n' && context === undefined) {
      finish();
      continue;
    }
    current += char;
    if (char === "'") stack.push('single');
    else if (char === '"') stack.push('double');
    else if (char === '$' && text[i + 1] === '(') {
      current += '(';
      i += 1;
      stack.push('substitution');
    } else if (char === '(' && context === 'substitution') stack.push('substitution');
    else if (char === ')' && context === 'substitution') stack.pop();
  }
  if (stack.length > 0) throw new Error(`a shell example ends inside ${top()}: ${current.trim()}`);
  finish();
  return commands;
}
