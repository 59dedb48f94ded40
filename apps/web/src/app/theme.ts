import {
  createTheme,
  darken,
  luminance,
  type AlertProps,
  type CSSVariablesResolver,
  type DrawerProps,
  type LoaderProps,
  type MantineColorsTuple,
  type ModalProps,
  type NotificationProps,
} from '@mantine/core';

// WCAG 2.2 AA: normal text and its background at 4.5:1 at least (1.4.3).
const AA_CONTRAST = 4.5;

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color`, darkened in small steps until it reads at 4.5:1 on `background`. */
export function readableOn(background: string, color: string): string {
  let shade = color;
  for (let step = 1; contrastRatio(background, shade) < AA_CONTRAST && step <= 20; step += 1) shade = darken(color, step * 0.05);
  return shade;
}

// Mantine's teal with darker shades 8 and 9: shade 8 reads at AA as white text's background (6.1:1), as
// links and focus rings on white, and as text on the light background teal.1 of a selected row (5.3:1).
const teal: MantineColorsTuple = ['#e6fcf5', '#c3fae8', '#96f2d7', '#63e6be', '#38d9a9', '#20c997', '#12b886', '#0ca678', '#07704f', '#055c41'];

// Secondary text (dimmed, placeholders, disabled fields): 6.1:1 on white, 5.1:1 on the disabled grey.
const MUTED_TEXT = '#5c636a';

// A calm clinical look: teal accents on neutral greys, system fonts so text renders instantly.
export const theme = createTheme({
  primaryColor: 'teal',
  colors: { teal },
  // Shade 8 of every color is what filled buttons, badges and links use: dark enough for white text.
  primaryShade: { light: 8, dark: 8 },
  // Filled colors too light for white text (yellow, orange, green) get black text instead; the threshold is
  // the luminance at which white text falls to 4.5:1.
  autoContrast: true,
  luminanceThreshold: 1.05 / AA_CONTRAST - 0.05,
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '600' },
  // Icon-only close buttons have no text of their own: name them for screen readers.
  // Plain objects, not Modal.extend(...): importing Modal and Drawer here put them (with ScrollArea and floating-ui)
  // in the sign-in page's first load.
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps> },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<DrawerProps> },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } satisfies Partial<NotificationProps> },
    Alert: { defaultProps: { closeButtonLabel: 'Dismiss' } satisfies Partial<AlertProps> },
    // A loader's aria-label ("Loading document") is only allowed, and announced, on an element with a role.
    Loader: { defaultProps: { role: 'status' } satisfies Partial<LoaderProps> },
  },
});

/**
 * Colors Mantine derives from the palette, raised to AA: the light variant's text (light buttons, badges,
 * alerts, the active navigation entry) is darkened until it reads on its hover background, and the greys of
 * dimmed, placeholder and disabled text are one muted grey.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    ...Object.fromEntries(
      Object.entries(resolved.colors).flatMap(([name, shades]) => [
        [`--mantine-color-${name}-light-color`, readableOn(shades[2], shades[9])],
        [`--mantine-color-${name}-text`, readableOn(resolved.white, shades[8])],
      ]),
    ),
    '--mantine-color-dimmed': MUTED_TEXT,
    '--mantine-color-placeholder': MUTED_TEXT,
    '--mantine-color-disabled-color': MUTED_TEXT,
    '--mantine-color-error': resolved.colors.red[9],
  },
  dark: {},
});
