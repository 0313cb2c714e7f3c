import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';
import { fieldClass } from './styles';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input type={type} className={cn(fieldClass, 'h-9', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(fieldClass, 'min-h-[72px] py-2', className)} {...props} />;
}
