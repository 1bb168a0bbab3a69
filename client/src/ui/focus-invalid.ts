/**
 * After a form's submit was checked: its first refused field (aria-invalid) gets the focus and comes into
 * view, or, with none to focus, its first error message comes into view. On the next frame, once the
 * errors are rendered. A keyboard or screen-reader user lands on what to fix (the login form left the
 * focus on its button; the register form scrolled to the field without focusing it).
 */
export function focusFirstInvalid(form: HTMLFormElement, frame: (fn: () => void) => unknown = requestAnimationFrame): void {
  frame(() => {
    const field = form.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) {
      field.focus({ preventScroll: true });
      field.scrollIntoView({ block: 'center' });
      return;
    }
    form.querySelector<HTMLElement>('.form-field__error, [role="alert"]')?.scrollIntoView({ block: 'center' });
  });
}
