import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';

/**
 * The toast of a failed action: red, its title, and the server's message below (else the fallback). Returns the
 * toast's id, as `toast` does.
 */
export function toastError(title: string, error: unknown, fallback = 'Please try again'): string {
  return toast({ variant: 'destructive', title, description: errorMessage(error, fallback) });
}
