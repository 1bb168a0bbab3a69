import type { ResourceType } from '@portal/contracts/domain/constants';
import { useResources } from '../../lib/domain-route';
import { Icon, isIconName } from '../../ui/icons';

/** Icon links to the merchant's social pages that exist in the domain-route resources. */
export function SocialLinks({ types, className }: { types: readonly ResourceType[]; className?: string }) {
  const resources = useResources(types);
  if (resources.length === 0) return null;
  return (
    <ul className={`social-links${className ? ` ${className}` : ''}`}>
      {resources.map((r) => (
        <li key={r.resourceType}>
          <a href={r.url} target="_blank" rel="noopener noreferrer" aria-label={r.labelNameEn || r.name} title={r.labelNameEn || r.name} data-social={r.resourceType}>
            {isIconName(r.resourceType) ? <Icon name={r.resourceType} size={18} /> : r.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
