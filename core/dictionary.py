"""The built-in Russian-English dictionary: Russian stems and the English words they translate.

Written for memory banks: their structure, governance, decisions and delivery, product,
engineering, UI, text, and common nouns. A bank extends it with ``dna/vocabulary.md`` and with the
pairs its own titles teach (``core.lexicon``); ``core.lang`` matches words against it.
"""

from __future__ import annotations

import re

# "stem: english words" separated by ";". Written for memory banks: their
# structure, governance, decisions and delivery, product, engineering, UI, text, and common nouns.
_DICTIONARY = """
банк: bank; документ: document documentation docs; раздел: section; индекс: index;
оглавлен: index contents; навигац: navigation navigate; карантин: quarantine inbox;
входящ: inbox incoming; шаблон: template templates; памят: memory; заметк: note notes;
каталог: directory catalog; папк: folder directory
владел: owner canonical owns; границ: boundary boundaries; правил: rule rules;
провер: validation check verification; контракт: contract; схем: schema; обязательн: required mandatory;
принцип: principle principles; управлен: governance management; зависимост: dependency dependencies;
источник: source; истин: truth; согласован: consistency agreement
реш: decision adr decided; компромисс: trade-off tradeoff; альтернатив: alternative alternatives;
сценар: scenario use; требован: requirement requirements; фич: feature; функц: feature function;
задач: task tasks issue; эпик: epic; план: plan planning; дорожн: roadmap; выпуск: release;
релиз: release; верси: version versioning; статус: status; этап: stage phase; стади: stage;
приемк: acceptance; критери: criteria criterion; поставк: delivery
продукт: product; цел: goal goals; пользовател: user users; клиент: client customer;
аудитори: audience; рын: market; метрик: metric metrics; видени: vision; глоссар: glossary;
термин: term terms terminology; предметн: domain; бизнес: business; ценообразован: pricing
архитектур: architecture; бэкенд: backend; бекенд: backend; фронтенд: frontend; локальн: local; демо: demo;
модул: module modules; компонент: component components; слой: layer layers; сервис: service; сервер: server;
аутентифик: authentication auth; авториз: authorization auth; вход: login entry sign-in; парол: password;
токен: token tokens; сесси: session sessions; безопасн: security safe; шифрован: encryption;
ключ: key keys; секрет: secret secrets; доступ: access; разрешен: permission permissions;
рол: role roles; баз: database base; данн: data; хранилищ: storage store; хранен: storage persistence;
миграц: migration migrations; поиск: search; запрос: request query; ответ: response answer;
ответствен: responsibility ownership; ошибк: error errors; исключен: exception; логин: login;
логик: logic; журнал: log journal; монитор: monitor monitoring; оповещ: alert alerts; кеш: cache;
кэш: cache; очеред: queue; планировщ: scheduler; повтор: retry repeat; таймаут: timeout;
задержк: latency delay; производительн: performance; нагрузк: load; масштаб: scale scaling;
парс: parser parsing parse; токениз: tokenizer tokenization; сериализ: serialization; конфиг: config configuration;
настройк: settings configuration setup; окружен: environment; переменн: variable variables;
пакет: package packages; сборк: build; тест: test testing tests; покрыт: coverage; отладк: debugging debug;
баг: bug bugs; исправ: fix fixes; воспроизв: reproduce reproduction; регресс: regression;
конфликт: conflict conflicts; инцидент: incident incidents; рефактор: refactoring refactor; депло: deployment deploy; разверт: deployment deploy; выкат: deployment rollout; откат: rollback;
репозитор: repository repo; ветк: branch branches; коммит: commit commits; слиян: merge; ревью: review;
интеграц: integration integrations; адаптер: adapter adapters; интерфейс: interface; событи: event events;
сообщен: message messages; синхрониз: sync synchronization; обнов: update updates; загрузк: upload loading;
загруж: upload uploaded; хран: store storage stored; запуск: launch run start; запуст: launch run start;
файл: file files; путь: path paths; команд: command commands team; процесс: process;
поток: stream flow thread; сет: network; протокол: protocol; формат: format; скрипт: script;
терминал: terminal; инструмент: tool tooling; агент: agent agents; модел: model; тип: type types;
поле: field fields; значен: value values; список: list; дерев: tree;
граф: graph; связ: link relation relationship; ссылк: link reference; иерарх: hierarchy; цикл: cycle loop;
состоян: state status; переход: transition transitions; жизненн: lifecycle
экран: screen; страниц: page pages pagination; кнопк: button; форм: form; меню: menu; окн: window;
диалог: dialog; панел: panel pane; вкладк: tab; тем: topic theme; цвет: color colour palette;
шрифт: font typography; типограф: typography; стил: style styling; дизайн: design; макет: layout mockup;
отображ: display render rendering; рендер: render rendering; клавиатур: keyboard; горяч: shortcut hotkey;
подсказк: hint tooltip; календар: calendar; таблиц: table; фильтр: filter filtering; сортиров: sort sorting;
главн: main primary
книг: book; глав: chapter; текст: text; перевод: translation; словар: glossary vocabulary dictionary;
язык: language; слов: word words; предложен: sentence proposal; абзац: paragraph; заголов: heading title;
назван: name title; стем: stem stemming; опечат: typo; цитат: quote quotation
порог: threshold thresholds; удален: delete deletion; удаленн: remote; подводн: gotcha gotchas;
ловушк: trap gotcha; пример: example examples; инструкц: instruction instructions guide;
руководств: guide manual; описан: description; истори: history; измен: change changes;
дат: date; врем: time; деньг: money; валют: currency; цена: price prices; оплат: payment;
платеж: payment payments; бронир: booking reservation; гост: guest guests; заказ: order;
счет: invoice account; скидк: discount; отчет: report reports; аналитик: analytics;
проблем: problem issue; созда: create creation; добав: add; удал: delete remove; отправ: send;
выбор: choice selection; выбра: choose chosen selected; публик: publish publication; черновик: draft; архив: archive archived;
блокир: block blocking lock; попыт: attempt attempts; очист: cleanup clear; перезагруз: reload reloading;
подсвет: highlight highlighting; изображен: image images; форум: forum; риск: risk risks; ограничен: constraint limit limitation; лимит: limit;
приватн: privacy; причин: reason cause; уведомлен: notification notifications; офлайн: offline;
библиотек: library; мобильн: mobile
одн: one single; два: two; две: two; двух: two; трех: three; перв: first; втор: second
"""


def _builtin_entries() -> list[tuple[str, tuple[str, ...]]]:
    entries = []
    for chunk in re.split("[;\n]", _DICTIONARY):
        key, _, words = chunk.partition(":")
        if key.strip():
            entries.append((key.strip(), tuple(words.split())))
    return entries


BUILTIN_ENTRIES: tuple[tuple[str, tuple[str, ...]], ...] = tuple(_builtin_entries())
