import { describe, expect, it } from 'vitest';
import { markdownWithMath } from './markdown-source';

describe('markdownWithMath: punctuation after a display equation', () => {
  it('puts the full stop or comma that ends the sentence inside the display, never on a line of its own', () => {
    // the rotating-hoop derivation writes "… + mgR\cos\theta .$$" and others "$$…$$." (prisma/seed/demo/physics-derivations)
    expect(markdownWithMath('so\n\n$$a = b$$.\n\nThen')).toBe('so\n\n$$$ a = b . $$$\n\nThen');
    expect(markdownWithMath('$$a = b$$, where $b$ is small')).toBe('$$$ a = b , $$$ where $$ b $$ is small');
    // inline maths, a number and a word after the display stay as they are
    expect(markdownWithMath('$a$. Next')).toBe('$$ a $$. Next');
    expect(markdownWithMath('$$a = b$$ .5 units')).toBe('$$$ a = b $$$ .5 units');
  });
});
