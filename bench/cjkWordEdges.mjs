// Boundaries at word edges in scripts written without spaces (issue 45 item 8; docs/boundaries.md,
// "Unspaced scripts"): on a small hand-labelled set of Chinese and Japanese sentences (gold words
// split by "|"), how often the boundary strings SourceCheck writes (core/boundaries.ts, style `words`)
// end or begin at a gold word edge, against the same rule over the word edges of Intl.Segmenter
// (ICU's dictionary segmenter, built into Node and every browser: no dependency, no bundle bytes).
// Every span of 1 to 4 gold words not starting or ending on punctuation is cited. Run:
// node scripts/build.mjs && node bench/cjkWordEdges.mjs
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { startBoundary, endBoundary } = require("../out/server/src/core/boundaries.js");

const zh = [
    "截至|去年底|，|全国|有|近|三百万|名|网约车|司机|取得|了|从业|资格|。",
    "多数|团队|表示|，|安装|配置|通常|不到|十|分钟|。",
    "新|版本|在|冷|启动|时|按需|加载|插件|，|内存|占用|明显|下降|。",
    "调查|显示|，|超过|六成|的|受访者|每天|使用|移动|支付|。",
    "该|市|计划|在|两|年|内|新建|五十|座|公共|充电站|。",
    "研究人员|发现|，|睡眠|不足|会|影响|儿童|的|注意力|。",
    "这|款|手机|的|电池|续航|比|上|一|代|提升|了|百分之二十|。",
    "由于|暴雨|，|多|趟|高铁|列车|晚点|超过|一|小时|。",
    "公司|第三|季度|营收|同比|增长|百分之十二|，|净利润|持平|。",
    "图书馆|将|于|下|周一|起|延长|开放|时间|。",
    "专家|建议|老年人|每天|步行|三十|分钟|以上|。",
    "本次|更新|修复|了|离线|同步|中|丢失|数据|的|问题|。",
    "该|疫苗|在|临床|试验|中|的|保护率|达到|百分之九十|。",
    "今年|夏天|的|平均|气温|比|往年|高|一点五|度|。",
    "外卖|平台|的|骑手|数量|在|疫情|期间|迅速|增加|。",
    "政府|宣布|将|降低|小微|企业|的|贷款|利率|。",
    "这|座|大桥|全长|二十二|公里|，|预计|明年|通车|。",
    "用户|可以|在|设置|中|关闭|自动|更新|功能|。",
    "新|政策|要求|所有|餐厅|公示|食品|来源|。",
    "报告|指出|，|城市|空气|质量|连续|三|年|改善|。",
];
const ja = [
    "東京都|は|来年度|から|電気|自動車|の|購入|補助金|を|拡充|する|方針|を|決め|た|。",
    "多く|の|チーム|は|、|設定|に|十|分|も|かから|ない|と|答え|た|。",
    "新しい|バージョン|で|は|、|起動|時|に|プラグイン|を|遅延|読み込み|する|。",
    "調査|に|よる|と|、|回答者|の|六割|以上|が|毎日|スマートフォン|で|支払い|を|し|て|いる|。",
    "大雨|の|ため|、|新幹線|が|一|時間|以上|遅れ|た|。",
    "研究者|たち|は|睡眠|不足|が|子ども|の|集中力|に|影響|する|こと|を|発見|し|た|。",
    "図書館|は|来週|から|開館|時間|を|延長|する|。",
    "この|橋|は|全長|二十二|キロ|で|、|来年|開通|する|予定|だ|。",
    "会社|の|第三|四半期|の|売上|は|前年|比|十二|パーセント|増え|た|。",
    "利用者|は|設定|画面|で|自動|更新|を|無効|に|できる|。",
    "政府|は|中小|企業|向け|の|融資|金利|を|引き下げる|と|発表|し|た|。",
    "今年|の|夏|の|平均|気温|は|例年|より|一・五|度|高かっ|た|。",
    "専門家|は|高齢者|に|毎日|三十|分|以上|歩く|こと|を|勧め|て|いる|。",
    "今回|の|更新|で|、|オフライン|同期|の|データ|消失|が|修正|さ|れ|た|。",
    "報告書|は|都市|の|大気|汚染|が|三|年|連続|で|改善|し|た|と|指摘|し|た|。",
];

const PUNCT = /^[，。、！？：；「」（）]$/u;

function parse(labelled) {
    const words = labelled.split("|");
    const line = words.join("");
    const edges = new Set([0]);
    let at = 0;
    for (const w of words) {
        at += w.length;
        edges.add(at);
    }
    const starts = [];
    at = 0;
    for (const w of words) {
        starts.push(at);
        at += w.length;
    }
    return { words, line, edges, starts };
}

function count(line, needle) {
    let n = 0;
    for (let i = line.indexOf(needle); i !== -1; i = line.indexOf(needle, i + 1)) n++;
    return n;
}

/** The `words` rule over ICU's edges: the shortest unique string from the edge to an ICU edge, two characters at least. */
function icuStart(line, icu, column, limit) {
    for (const e of icu)
        if (e > column && e <= limit && (e - column >= 2 || e === limit) && count(line, line.slice(column, e)) === 1)
            return line.slice(column, e);
    return undefined;
}
function icuEnd(line, icu, end, limit) {
    for (const s of [...icu].reverse())
        if (s < end && s >= limit && (end - s >= 2 || s === limit) && count(line, line.slice(s, end)) === 1)
            return line.slice(s, end);
    return undefined;
}

function measure(name, sentences, locale) {
    const segmenter = new Intl.Segmenter(locale, { granularity: "word" });
    const tally = { spans: 0, now: 0, icu: 0, icuFound: 0, edgesGold: 0, edgesIcu: 0, edgesBoth: 0 };
    for (const labelled of sentences) {
        const { words, line, edges, starts } = parse(labelled);
        const icu = new Set([0]);
        for (const s of segmenter.segment(line)) icu.add(s.index + s.segment.length);
        const inner = (set) => [...set].filter((e) => e > 0 && e < line.length);
        tally.edgesGold += inner(edges).length;
        tally.edgesIcu += inner(icu).length;
        tally.edgesBoth += inner(icu).filter((e) => edges.has(e)).length;
        const icuSorted = [...icu].sort((a, b) => a - b);
        for (let i = 0; i < words.length; i++) {
            for (let j = i; j < Math.min(words.length, i + 4); j++) {
                if (PUNCT.test(words[i]) || PUNCT.test(words[j])) continue;
                const from = starts[i];
                const to = starts[j] + words[j].length;
                const start = startBoundary(line, from, { limit: to })?.str;
                const end = endBoundary(line, to, { limit: from })?.str;
                if (start === undefined || end === undefined) continue;
                tally.spans++;
                tally.now += (edges.has(from + start.length) ? 1 : 0) + (edges.has(to - end.length) ? 1 : 0);
                const s2 = icuStart(line, icuSorted, from, to) ?? start;
                const e2 = icuEnd(line, icuSorted, to, from) ?? end;
                tally.icu += (edges.has(from + s2.length) ? 1 : 0) + (edges.has(to - e2.length) ? 1 : 0);
            }
        }
    }
    const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
    const boundaries = tally.spans * 2;
    console.log(`${name}: ${sentences.length} sentences, ${tally.spans} spans, ${boundaries} boundary strings`);
    console.log(
        `  at a gold word edge, core/boundaries.ts today:         ${tally.now}/${boundaries} = ${pct(tally.now, boundaries)}`,
    );
    console.log(
        `  at a gold word edge, the same rule over ICU's edges:   ${tally.icu}/${boundaries} = ${pct(tally.icu, boundaries)}`,
    );
    console.log(
        `  ICU's word edges against gold: precision ${pct(tally.edgesBoth, tally.edgesIcu)}, recall ${pct(tally.edgesBoth, tally.edgesGold)}`,
    );
}

measure("Chinese", zh, "zh");
measure("Japanese", ja, "ja");
