import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEMBER_CENTRE_ITEMS } from '@portal/contracts/domain/constants';
import { errorMessage } from '../../../lib/field-message';
import { openPopup } from '../../../lib/popups';
import { FormMessage } from '../../../ui/form-field';
import { useMemberInfo } from '../api/get-member-info';
import { SecurityCenter } from './security-center';
import './member-centre.css';

type Item = (typeof MEMBER_CENTRE_ITEMS)[number];

/** /member: the member centre, security centre first (spec section 2); the other items come later. */
export function MemberCentrePage() {
  const { t } = useTranslation('register');
  const info = useMemberInfo();
  const [item, setItem] = useState<Item>('securityCenter');
  if (info.error) return <section className="container member-centre"><FormMessage message={errorMessage(info.error)} /></section>;
  if (!info.data) return <section className="container member-centre"><p className="form-notice">{t('loading')}</p></section>;
  if (info.data.isTrial) {
    return (
      <section className="container member-centre member-centre--trial" data-member-trial>
        <div className="mc-card mc-card--center">
          <p>{t('mc_trial')}</p>
          <button type="button" className="btn btn--primary" onClick={() => openPopup('registerModal')}>
            {t('mc_register')}
          </button>
        </div>
      </section>
    );
  }
  return (
    <section className="container member-centre">
      <nav className="mc-menu" aria-label={t('mc_menu')}>
        <ul>
          {MEMBER_CENTRE_ITEMS.map((id) => (
            <li key={id}>
              <button type="button" className="mc-menu__item" aria-current={item === id ? 'page' : undefined} onClick={() => setItem(id)} data-mc-item={id}>
                <span>{t(`mc_${id}`)}</span>
                {id !== 'securityCenter' && <span className="mc-menu__soon">{t('mc_soon')}</span>}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mc-content">
        {item === 'securityCenter' ? (
          <SecurityCenter info={info.data} />
        ) : (
          <div className="mc-card" data-mc-soon={item}>
            <h1 className="mc-title">{t(`mc_${item}`)}</h1>
            <p className="form-notice">{t('mc_soon_text')}</p>
          </div>
        )}
      </div>
    </section>
  );
}
