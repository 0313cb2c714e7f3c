import { CheckCircle2 } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/lib/paths';

export default function PaymentSuccessPage() {
  const contract = new URLSearchParams(useSearch()).get('contract');
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="w-full max-w-md rounded-2xl border bg-white p-8 text-center shadow-lg">
        <CheckCircle2 className="mx-auto mb-4 size-14 text-green-600" aria-hidden />
        <h1 className="text-2xl font-semibold">Payment Successful</h1>
        <p className="mt-2 text-muted-foreground">Thank you for your payment. A receipt is on its way to your inbox.</p>
        {contract && (
          <p className="mt-4 text-sm">
            Contract ID: <span className="font-mono">{contract}</span>
          </p>
        )}
        <Link href={paths.dashboard} className={buttonVariants({ className: 'mt-6' })}>
          Return to Dashboard
        </Link>
      </div>
    </div>
  );
}
