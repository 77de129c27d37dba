import type { InputHTMLAttributes, Ref } from 'react';
import { cx } from '#web/lib/cx.ts';
import './switch.css';

interface SwitchProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role'> {
  ref?: Ref<HTMLInputElement>;
}

/**
 * An on/off setting that takes effect at once: a checkbox with the switch role (announced as
 * "switch, on/off"), drawn as a track and thumb. Label it with a `<label>` or `aria-label`.
 * @see https://www.w3.org/WAI/ARIA/apg/patterns/switch/examples/switch-checkbox/
 */
export function Switch({ className, ...input }: SwitchProps) {
  return <input type="checkbox" role="switch" className={cx('switch', className)} {...input} />;
}
