import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { LanguageCode } from '@portal/contracts/domain/constants';
import { FALLBACK_LANGUAGE, isLanguageCode } from '../../../i18n/languages';
import { errorMessage } from '../../../lib/field-message';
import { FormMessage } from '../../../ui/form-field';
import { Pager } from '../../../ui/pager';
import { NEWS_PAGE_SIZE, useArticle, useNews } from '../api/get-news';
import '../news.css';

function useLanguage(): LanguageCode {
  const { i18n } = useTranslation('home');
  return isLanguageCode(i18n.language) ? i18n.language : FALLBACK_LANGUAGE;
}

function useDate() {
  const { i18n } = useTranslation('home');
  return (iso: string) => new Date(iso).toLocaleDateString(i18n.language === 'TY' ? 'fil-PH' : 'en-PH', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** /news: the blog and news list, newest first, in the UI language; new articles appear without reload. */
export function NewsListPage() {
  const { t } = useTranslation('home');
  const language = useLanguage();
  const formatDate = useDate();
  const [page, setPage] = useState(1);
  const q = useNews(language, page);
  const list = q.data?.list ?? [];
  return (
    <section className="container news-page" data-testid="news-page">
      <h1 className="news-page__title">{t('news.title')}</h1>
      <p className="news-page__lead">{t('news.lead')}</p>
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      {q.data && list.length === 0 && <p className="cx-empty">{t('news.empty')}</p>}
      <ul className="news-list">
        {list.map((a) => (
          <li key={a.id} className="news-card" data-testid={`news-item-${a.id}`}>
            {a.coverUrl && <img className="news-card__cover" src={a.coverUrl} alt="" loading="lazy" />}
            <div className="news-card__body">
              <time className="news-card__date" dateTime={a.publishedAt}>{formatDate(a.publishedAt)}</time>
              <h2 className="news-card__title"><Link to={`/news/${a.id}`}>{a.title}</Link></h2>
              {a.summary && <p className="news-card__summary">{a.summary}</p>}
              <Link className="news-card__more" to={`/news/${a.id}`}>{t('news.read_more')}</Link>
            </div>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={q.data ? Math.max(1, Math.ceil(q.data.total / NEWS_PAGE_SIZE)) : 1} onPage={setPage} prefix="news" />
    </section>
  );
}

/** /news/:id: one article; its paragraphs are the body's blank-line separated blocks (plain text, never HTML). */
export function NewsArticlePage() {
  const { t } = useTranslation('home');
  const { id = '' } = useParams();
  const language = useLanguage();
  const formatDate = useDate();
  const q = useArticle(language, id);
  return (
    <section className="container news-page" data-testid="news-article">
      <Link className="news-back" to="/news">← {t('news.back')}</Link>
      {q.error && <FormMessage message={errorMessage(q.error)} />}
      {q.data && (
        <article className="news-article">
          <time className="news-card__date" dateTime={q.data.publishedAt}>{formatDate(q.data.publishedAt)}</time>
          <h1 className="news-article__title">{q.data.title}</h1>
          {q.data.coverUrl && <img className="news-article__cover" src={q.data.coverUrl} alt="" />}
          {q.data.summary && <p className="news-article__summary">{q.data.summary}</p>}
          {q.data.body.split(/\n\s*\n/).map((para, i) => (
            <p key={i} className="news-article__para">{para}</p>
          ))}
        </article>
      )}
    </section>
  );
}
