import { htmlToText, markdownToText } from './text.js';

describe('htmlToText', () => {
  it('turns paragraphs into blank-line separated text', () => {
    expect(htmlToText('<p>First sentence.</p><p>Second one.</p>')).toBe('First sentence.\n\nSecond one.');
  });

  it('renders headings, lists and line breaks', () => {
    expect(htmlToText('<div><h3>About the role</h3><p>Build things.</p><ul><li>One</li><li>Two</li></ul></div>')).toBe(
      'About the role\n\nBuild things.\n\n- One\n- Two',
    );
    expect(htmlToText('a<br>b<br/>c')).toBe('a\nb\nc');
  });

  it('decodes entities and drops tags, scripts and styles', () => {
    expect(
      htmlToText('<p>R&amp;D &lt;team&gt; &quot;x&quot; &#39;y&#39; &#x41;&nbsp;<b>bold</b> <a href="x">link</a></p>'),
    ).toBe('R&D <team> "x" \'y\' A bold link');
    expect(htmlToText('<style>p{}</style><script>alert(1)</script><p>ok</p>')).toBe('ok');
    expect(htmlToText('&unknown;')).toBe('&unknown;');
  });

  it('reads stray and unclosed markup as a browser would, in one pass', () => {
    expect(htmlToText('5 < 6 and 7 > 3')).toBe('5 < 6 and 7 > 3');
    expect(htmlToText('<<<')).toBe('<<<');
    expect(htmlToText('<p>kept<style>hidden to the end')).toBe('kept');
    expect(htmlToText('<LI>Upper<BR>case</LI>')).toBe('- Upper\ncase');
    expect(htmlToText('<li'.repeat(10_000))).toBeNull();
  });

  it('is null for empty input', () => {
    expect(htmlToText(null)).toBeNull();
    expect(htmlToText(undefined)).toBeNull();
    expect(htmlToText('')).toBeNull();
    expect(htmlToText('<p> </p>')).toBeNull();
  });
});

describe('markdownToText', () => {
  it('removes emphasis and keeps the structure', () => {
    expect(markdownToText('**About the role**\n\nBuild things.\n\n**What we offer**\n\n- One\n- Two')).toBe(
      'About the role\n\nBuild things.\n\nWhat we offer\n\n- One\n- Two',
    );
  });

  it('removes headings, links, images, italics and code marks', () => {
    expect(
      markdownToText(
        '## Title\n\nSee [our site](https://x.com) and ![logo](l.png). Use `npm`, _really_ *now*.\n* item',
      ),
    ).toBe('Title\n\nSee our site and logo. Use npm, really now.\n- item');
    expect(markdownToText('__bold__ text')).toBe('bold text');
  });

  it('keeps snake_case words and arithmetic', () => {
    expect(markdownToText('use snake_case_names and 2 * 3 * 4')).toBe('use snake_case_names and 2 * 3 * 4');
  });

  it('is null for empty input', () => {
    expect(markdownToText(null)).toBeNull();
    expect(markdownToText('')).toBeNull();
    expect(markdownToText('\n\n')).toBeNull();
  });
});
