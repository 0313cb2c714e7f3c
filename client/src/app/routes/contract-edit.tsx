import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'wouter';
import { paths } from '@/lib/paths';
import { ComingSoon } from './coming-soon';

export default function Page() {
  const { id } = useParams<{ id: string }>();
  return (
    <>
      <Link
        href={paths.contract(id)}
        className="mb-4 inline-flex items-center gap-1 text-sm text-primary hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden /> Back to contract
      </Link>
      <ComingSoon title="Edit Contract" />
    </>
  );
}
