import { getPrimaryShade, isLightColor, mergeMantineTheme, DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, readableOn, theme } from './theme.ts';

// WCAG 2.2 AA 1.4.3 for what the theme paints: every text color on its background at 4.5:1 or more.
const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const light: Record<string, string> = cssVariablesResolver(resolved).light;
const AA = 4.5;
const WHITE = '#ffffff';
const BLACK = '#000000';

describe('theme contrast (WCAG 2.2 AA)', () => {
  const shade = getPrimaryShade(resolved, 'light');

  it('gives every filled color a text color that reads on it, and white on the primary teal', () => {
    for (const [name, shades] of Object.entries(resolved.colors)) {
      const background = shades[shade];
      // What autoContrast picks: black on light colors, white on the others.
      const text = isLightColor(background, resolved.luminanceThreshold) ? BLACK : WHITE;
      expect(contrastRatio(text, background), `${name} filled`).toBeGreaterThanOrEqual(AA);
    }
    expect(isLightColor(resolved.colors.teal[shade], resolved.luminanceThreshold)).toBe(false);
  });

  it('makes links, the light variant and a selected row of teal readable', () => {
    const teal = resolved.colors.teal;
    expect(contrastRatio(teal[shade], WHITE)).toBeGreaterThanOrEqual(AA);
    // A selected row (primary light background) with link-colored text.
    expect(contrastRatio(teal[shade], teal[1])).toBeGreaterThanOrEqual(AA);
  });

  it('darkens the light variant text of every color until it reads on the light background and its hover', () => {
    for (const [name, shades] of Object.entries(resolved.colors)) {
      const text = light[`--mantine-color-${name}-light-color`]!;
      expect(contrastRatio(text, shades[1]), `${name} light`).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(text, shades[2]), `${name} light hover`).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(light[`--mantine-color-${name}-text`]!, WHITE), `${name} text`).toBeGreaterThanOrEqual(AA);
    }
  });

  it('keeps dimmed, placeholder, disabled and error text readable', () => {
    for (const variable of ['--mantine-color-dimmed', '--mantine-color-placeholder', '--mantine-color-error']) {
      expect(contrastRatio(light[variable]!, WHITE), variable).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(light[variable]!, resolved.colors.gray[1]), `${variable} on grey`).toBeGreaterThanOrEqual(AA);
    }
    // Disabled fields keep showing data on the disabled grey.
    expect(contrastRatio(light['--mantine-color-disabled-color']!, resolved.colors.gray[2])).toBeGreaterThanOrEqual(AA);
  });

  it('readableOn leaves a readable color alone and darkens a faint one', () => {
    expect(readableOn(WHITE, '#212529')).toBe('#212529');
    expect(contrastRatio(readableOn(WHITE, '#fab005'), WHITE)).toBeGreaterThanOrEqual(AA);
  });
});
