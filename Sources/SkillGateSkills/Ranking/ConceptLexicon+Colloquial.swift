// Colloquial words of ConceptLexicon, in the broader links' format (`TOPIC: word word …`): informal words,
// chat spellings and everyday Chinese phrasings a user types instead of a tool's vocabulary ("tunes" for music,
// "tmrw" for tomorrow, "打个车" for a ride), none of them a word of a group or a broader link. Each counts as its
// TOPIC's group. Written from general knowledge, not from any evaluation corpus
// (docs/decisions/0018-learned-router-and-skill-ranking-quality.md, "colloquial words").
extension ConceptLexicon {
    static let colloquial = #"""
    calendar: cal gcal ical sched
    appointment: appt appts
    meeting: mtg mtgs catchup 开个会
    availability: 有空吗 空不空 哪天有空
    reschedule: rebook 改个时间 往后挪 挪一下 改天
    cancel: canceled canx 取消掉
    deadline: eod cob 死线
    remind: nag 提个醒 喊我 叫我一声 别让我忘
    alarm: wakeup 叫醒我 喊我起床 定闹钟 叫早
    email: emails emailed hotmail 电邮 伊妹儿 发封邮件
    text: texted msgs messaged 发微信 发个短信 回消息
    chat: convo convos 聊聊 唠嗑 聊一下
    group: groupchat 群里 拉群 建群
    call: 打个电话 打过去 回个电话
    facetime: videocall videochat 视频一下 开视频
    family: mommy mama daddy sis granny nana grandparents siblings 我妈 我爸 爸妈 姥姥 外婆 外公 小孩
    wife: hubby wifey bae boyfriend girlfriend bf gf 媳妇 老伴 对象 男朋友 女朋友 男友 女友
    friend: bestie bff homie mate 兄弟 老铁 死党 发小 姐妹
    birthday: birthdays 过生日 寿辰 大寿
    weather: balmy wx 天儿 天气咋样 啥天气 变天 冷不冷 热不热
    temperature: temp temps 多少度 几度
    rain: downpour showers drizzly rainstorm raincoat 下不下雨 毛毛雨 带不带伞
    snow: snowfall snowstorm 下不下雪 飘雪
    frost: nippy frigid brr brrr 冷飕飕 零下
    heatwave: scorcher 大热天 秋老虎
    wind: blustery gusty breezy 风大 起风 刮大风
    storm: stormy tstorm tstorms 雷阵雨 打雷了
    navigate: satnav waze 咋走 咋去 带路 领路
    traffic: tailback standstill snarled 堵死了 堵成狗
    nearby: 附近的 就近 离这近 家附近
    location: 发个位置 发定位 在哪儿
    parking: 停哪儿 找车位 停个车
    taxi: cabbie 叫个车 打个的 打的 坐出租
    pickup: 来接我 接我
    flight: redeye flights 订机票 飞过去
    hotel: hotels 订酒店 订个酒店
    trip: roadtrip staycation vacay honeymoon backpacking 旅个游 度个假 穷游 自驾游
    admission: tix 买票
    dollar: bucks greenbacks dollars 美刀 刀乐
    yuan: kuai 毛爷爷
    translate: 翻译下 帮我翻
    dictionary: 啥意思 什么叫
    music: tunes jams bops bangers banger ditty soundtrack ost songs 放点歌 听点歌 来点音乐 歌儿 来首歌
    volume: 大点声 小点声 声音大点 声音小点 调大点 调小点 吵死了
    pause: 先停 停下
    video: vids vid reels 刷视频 刷抖音 小视频
    movie: flicks movies 电影院 看个电影 看场电影 新片
    tv: telly binge bingewatch 刷剧 煲剧 美剧 韩剧 日剧 电视台
    recommend: recs 推荐下 推荐个
    light: lights lightbulb bulbs chandelier sconce 开下灯 关下灯 关个灯 床头灯 顶灯
    dim: 调暗点 调亮点
    heating: 太冷了 有点冷 开暖气 暖和点
    ac: airco 太热了 有点热 凉快点
    lock: latch 把门锁 锁一下
    unlock: 开个门 开下门 把门开
    camera: cam cams webcam nannycam babycam 看监控
    vacuum: vacuuming hoovering 扫扫地 拖个地
    blinds: curtain 帘子 拉帘子
    transfer: cashapp etransfer interac 转个账 转点钱 打点钱 打个款
    pay: 付个款 扫码付
    bill: 缴个费 交电费 交水费 交房租
    top: 充话费 交话费 充个值
    expense: splurge splurged 花钱 花了多少 开支
    freeze: 锁卡 停卡 卡丢了
    loan: 借点钱 借个钱 贷个款
    stock: stonks 炒股票
    crypto: hodl altcoin altcoins bitcoins doge
    salary: paycheque wages 月薪 年薪 薪资 薪酬
    tax: taxes 交税 税单
    shopping: 剁手 买买买 网上买 拍下
    delivery: 送上门 快递员
    tracking: 查物流 到哪儿了
    return: 退个货 想退货
    coupon: 优惠卷 薅羊毛 领个券
    discount: bogo deals 打个折 便宜点 捡漏
    price: spendy costly pricy ripoff 几块钱 啥价 多钱 贵吗
    grocery: groceries instacart costco walmart 菜场
    task: todos todolist 要办的
    done: 搞完 弄完 干完 完事 弄好了 搞定了
    priority: asap 加急 急事
    delete: 删了 删一下
    photo: pics pix photos 照个相 合照 合影
    screenshot: screencap screenie
    search: google googling googled 百度一下 查一查 搜一搜 谷歌一下
    summarize: rundown synopsis 长话短说 说重点 总结下 简单说
    doctor: 看个病 瞧病 看大夫 找医生 挂个号
    prescription: rx chemist drugstore 拿药 开点药
    symptom: poorly 不得劲 不太舒服
    fever: feverish 发高烧 烧了
    flu: sniffles sniffly stuffy 着凉 受凉 伤风 嗓子痛 喉咙痛
    pain: achy migraine 腰疼 背疼 好疼
    nausea: queasy puke throwup barf nauseous 想吐 吐了
    stress: stressed anxious burnout 心累 压力山大
    sleep: shuteye zzz sleepy 睡个觉 补觉 熬夜 睡懒觉 早点睡
    hydration: 喝口水 喝点水
    calorie: cals 多少卡
    workout: cardio lifting weightlifting 健个身 去健身 跑个步
    weight: 长胖 变胖 瘦了 掉秤
    diet: 减脂 管住嘴
    kilogram: kilos kilo lbs
    kilometer: kms klicks miles
    medication: pill 吃个药 药吃了
    food: grub chow nosh 吃啥 吃点啥 干饭
    hungry: famished ravenous hangry 有点饿 饿扁了
    meal: brekkie brekky 早饭 午饭 晚饭 中饭 约饭
    table: 订个桌 订座位
    takeout: carryout 点个外卖
    coffee: caffeine luckin 瑞幸 咖啡馆 喝咖啡
    pub: booze happyhour 喝一杯 小酌 喝两杯
    snack: munchies 零嘴 sweets
    cook: 做个饭 煮饭 做顿饭 烧菜 烧饭
    news: headlines 新鲜事 时事
    trending: 热议 上热搜 吃瓜
    score: 几比几 谁赢
    sport: sports 看球 看比赛
    post: 发圈 发朋友圈
    social: insta ig fb
    joke: pun puns dadjoke 逗个乐 搞笑 说个笑话
    time: 几点钟 现在几点
    timezone: 那边几点 当地时间
    date: 今天几号 几月几号
    today: 今儿个 tdy
    tonight: tonite 今儿晚上
    tomorrow: tmrw tmw tomoz tomorow tommorow tommorrow 明个 明儿个 明早 明晚
    yesterday: yday yest 昨儿个 昨晚 昨个
    weekday: tues tue thurs thur thu fri weds 礼拜一 礼拜二 礼拜三 礼拜四 礼拜五 星期
    weekend: wknd wkend 礼拜六 礼拜天 礼拜日 星期日 双休
    morning: mornin morn 大清早 清晨
    evening: nite 夜晚 晚间
    week: wk wks fortnight 上周 这礼拜 下礼拜 上礼拜 下下周
    month: mth mths 上个月 上月 下月 这月
    year: yr yrs 年底 年初 前年 后年
    hour: hrs secs 个把小时 一刻钟 半个钟
    later: 回头 过会儿 等下 待会儿 过一会
    holiday: xmas hols 除夕 年三十 小长假 黄金周 长假 五一
    calculate: 算下 加减乘除
    deploy: deploys redeploy 上个线 发个版
    restart: 重启下 重启一下
    log: logs logfile
    crash: borked 崩了 死机
    outage: 炸了 宕了
    performance: 好卡 太卡 卡了 laggy
    build: builds rebuild
    bug: buggy glitchy
    pet: doggo kitty pooch pup 喵星人 汪星人 毛孩子
    password: pw passwd
    battery: 充个电 电量低
    leave: dayoff sickday sickie 调个休
    party: shindig soiree 聚聚 聚一下
    """#
}
