import { ComingSoon } from './coming-soon';

export default function Page() {
  return <ComingSoon title="Products" />;
}
