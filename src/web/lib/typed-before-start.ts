/**
 * What a visitor typed into a prerendered screen's fields before the app took the screen over
 * (docs/decisions/0022-prerendered-first-screens.md): the staff app replaces the prerendered /login frame
 * rather than hydrating it, so main-app.tsx reads the fields first and the sign-in form starts from them.
 */
const typed = new Map<string, string>();

/** Reads the named fields of the prerendered markup in `container`, before the app renders over it. */
export function captureTypedFields(container: HTMLElement): void {
  for (const input of container.querySelectorAll<HTMLInputElement>('input[name]')) {
    if (input.value) typed.set(input.name, input.value);
  }
}

/** The value typed into the field `name` before the app started ('' if none). */
export function typedBeforeStart(name: string): string {
  return typed.get(name) ?? '';
}

/** Drops what was carried over (a password is not kept in memory longer than the form needs it). */
export function forgetTypedFields(): void {
  typed.clear();
}
