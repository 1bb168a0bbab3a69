import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { CUSTOMER_SERVICE_TYPES, LIMITS } from '@portal/contracts/domain/constants';
import { useCustomerService } from '../../lib/domain-route';
import { Icon, isIconName } from '../../ui/icons';
import { QrCode } from '../../ui/qr-code';

/** Right side bar: customer service (Facebook, Telegram, live chat) and the app download. */
export function SideBar() {
  const { t } = useTranslation('common');
  const links = useCustomerService(CUSTOMER_SERVICE_TYPES);
  const downloadUrl = `${window.location.origin}/down`;
  return (
    <aside className="side-bar" aria-label={t('customer_service')}>
      <ul className="side-bar__list">
        {links.map((cs) => (
          <li key={`${cs.csType}-${cs.url}`}>
            <a className="side-bar__btn" href={cs.url} target="_blank" rel="noopener noreferrer" data-cs={cs.csType}>
              {isIconName(cs.csType) && <Icon name={cs.csType} size={22} />}
              <span className="side-bar__label">{cs.title}</span>
            </a>
          </li>
        ))}
        <li className="side-bar__download">
          <Link className="side-bar__btn" to="/down" data-testid="sidebar-download">
            <Icon name="download" size={22} />
            <span className="side-bar__label">{t('app_download')}</span>
          </Link>
          <div className="side-bar__qr">
            <QrCode value={downloadUrl} label={t('app_download_qr')} size={LIMITS.QR_SIZE_SIDEBAR} margin={6} />
          </div>
        </li>
      </ul>
    </aside>
  );
}
