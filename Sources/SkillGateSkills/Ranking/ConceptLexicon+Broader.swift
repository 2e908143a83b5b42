// Broader links of ConceptLexicon: `TOPIC: word word …`, one topic a line. TOPIC is a word of a
// group in ConceptLexicon+Groups.swift (it names that group); each word after the colon — with its
// whole group if it is in one — also counts as that topic. Kinds and parts of a topic only ("rain"
// is weather; "jacket" is not), written from general knowledge, not from any evaluation corpus
// (docs/decisions/0018-learned-router-and-skill-ranking-quality.md, "broader links").
extension ConceptLexicon {
    static let broader = #"""
    weather: rain snow sunny cloudy wind storm humidity aqi uv sunrise pollen heatwave frost advisory radar flood temperature tornado sandstorm 龙卷风 沙尘暴 阴雨 气压 回南天
    calendar: event meeting appointment invite reschedule availability recurring birthday anniversary holiday deadline 日程提醒 排日程
    event: meeting party wedding concert webinar birthday festival exhibition 展览 展会 音乐节 庙会
    meeting: zoom boardroom 纪要 interview kickoff retro retrospective townhall allhands 周会 晨会 评审会 一对一
    email: reply forward attachment draft unread spam archive cc unsubscribe autoreply subject sender 邮件主题 发件人
    message: chat 群聊 emoji relay 群发 voicemail reply forward 留个言 捎句话
    call: voicemail speakerphone hang ringtone robocall facetime 电话会议 三方通话
    contact: mobile nickname address friend colleague family wife 加好友 联系方式
    spam: robocall 骚扰短信 垃圾短信 广告短信 推销短信
    map: navigate distance nearby location traffic compass altitude detour fastest restroom parking gas ev 街景 streetview 卫星图
    location: address findmy latitude longitude geofence 经纬度 经度 纬度 电子围栏
    traffic: commute accident toll detour violation roadwork 施工 限行 单双号
    transportation: bus subway tram ferry timetable 车站 shuttle bike taxi carpool cablecar monorail 索道 缆车
    taxi: carpool pickup driver fare limo limousine 专车 快车 出租 代驾
    car: maintenance gas ev violation dmv driving parking rental sedan suv tesla 车险 洗车 年审
    flight: airport checkin delayed layover roundtrip economy lounge tsa land boarding seat takeoff luggage 航段 直飞 nonstop
    airport: lounge tsa shuttle dutyfree 航站 接机 送机
    train: seat timetable delayed sleeper 卧铺 硬座 一等座 二等座 站票
    hotel: room concierge minibar 前台 房卡 续住 连住 度假村
    travel: itinerary passport luggage attractions tour dutyfree souvenir embassy flight hotel rental ferry beach camping hike ski 景点 攻略 签证办理
    attractions: museum zoo aquarium themepark 博物馆 动物园 水族馆 游乐园 公园 展览馆 古镇
    currency: dollar euro yuan yen pound rupee krw hkd cad aud franc baht peso ruble sgd twd vnd 外币 兑换券
    convert: kilometer kilogram speed liter cup acre megabyte binary timestamp currency temperature 公制 英制
    calculate: plus subtract multiply divide percent ratio average sqrt algebra perimeter fraction 四舍五入 算术 arithmetic
    clock: timezone dst alarm timer 整点 报时
    date: weekday lunar elapsed timestamp holiday 阳历 公历
    holiday: diwali ramadan hanukkah valentine 情人节 元宵 七夕 清明 重阳 母亲节 父亲节 劳动节 万圣节
    language: english chinese japanese korean french spanish translate german russian italian arabic portuguese thai vietnamese hindi cantonese 德语 俄语 意大利语 阿拉伯语 葡萄牙语 泰语 越南语 粤语
    dictionary: thesaurus spell idiom pronounce 词条 词性 例句
    music: artist album lyrics playlist genre shazam karaoke lullaby equalizer concert 单曲 新歌 热歌 榜单
    genre: blues metal edm kpop reggae folk indie disco 民谣 电子音乐 蓝调 乡村音乐 金属乐 古风
    playback: pause skip shuffle rewind subtitle 倍速 连播
    volume: mute equalizer decibel 分贝 音量键
    speaker: homepod sonos bose 小爱音箱 天猫精灵 智能音箱
    headphones: anc noisecancelling 头戴式 入耳式 降噪耳机
    video: movie tv livestream montage screencast 看视频 放视频
    movie: teaser documentary boxoffice actor actress director imax 票房 影评 导演 演员 主演
    tv: variety anime sitcom 遥控器 机顶盒 综艺 央视
    concert: livehouse orchestra opera symphony 交响乐 歌剧 音乐剧 musical
    智能家居: light thermostat lock garage camera doorbell security plug blinds routine sensor sprinkler vacuum 智能灯 智能门锁
    device: laptop smartwatch speaker headphones projector oven fridge dishwasher kettle laundry humidifier purifier boiler fan 电视机
    light: dim color flashlight led 吸顶灯 筒灯 灯带
    thermostat: heating ac fan humidifier 地暖 新风
    security: camera doorbell lock sensor intruder burglar 门磁 入侵 报警器
    lock: unlock 密码锁 指纹锁 智能锁
    electricity: solar blackout 电表 电价 峰谷电
    cleaning: garbage laundry vacuum dishwasher 大扫除 除尘
    chore: cleaning garbage 做家务 晾衣服 叠衣服
    bank: account balance transfer card freeze loan mortgage savings withdraw overdraft iban payee transaction interest 开户行
    payment: wallet qr refund bill declined tip split hongbao invoice fee transfer 付费 结款
    bill: electricity water prepaid internet rent hoa overdue 燃气费 煤气费
    expense: budget reimbursement invoice 账本 记账本 月度开销
    invest: stock fund crypto bond futures gold profit networth nasdaq dividend 理财产品 炒币
    stock: nasdaq ipo dividend bullish 港股 美股 沪深 涨跌
    crypto: dogecoin ripple xrp litecoin nft blockchain 区块链 空投
    loan: mortgage repay interest 车贷 信用贷 网贷
    card: 额度 freeze fraud declined 账单日 还信用卡
    insurance: premium deductible copay medicare medicaid 医保 车险 寿险 意外险 重疾险
    subscription: membership trial autorenew 免费试用 连续包月
    membership: loyalty 积分卡 黑卡 金卡 会籍
    price: cheap compare discount 涨价 标价
    discount: coupon groupbuy cashback 满减活动 折上折
    shopping: order cart checkout delivery return coupon product inventory wishlist grocery amazon secondhand auction preorder groupbuy brand specs 尺码 gift florist 逛淘宝
    order: cart checkout tracking return preorder 订单号 待付款 待收货
    delivery: tracking locker postage fedex postoffice 同城配送 闪送 跑腿
    product: specs brand warranty 尺码 inventory 型号参数 新品
    support: complaint feedback repair warranty refund 售后服务 客服电话
    gift: souvenir florist hongbao 回礼 礼盒
    clothes: shoes sneakers dress shirt pants jeans sweater hoodie 鞋子 裤子 裙子 衬衫 毛衣 卫衣 连衣裙 羽绒服
    note: journal whiteboard annotate 纪要 snippet 随手记
    file: document folder pdf spreadsheet presentation upload download dropbox compress rename template export attachment scan
    document: pdf spreadsheet presentation template form signature version proofread docx 合同文本
    photo: gallery screenshot filter draw 拍摄 证件照
    record: screencast transcribe 录音笔 录视频
    task: list done priority assign deadline chore 待办清单 任务清单
    project: sprint milestone roadmap gantt progress 里程碑 路线图 甘特图 项目进度
    fitness: run cycling swim yoga steps calorie hike ski pushup squat plank treadmill dumbbell 跑步机 俯卧撑 深蹲 平板支撑 哑铃
    health: sleep heart hypertension glucose spo2 weight hydration meditation stress menstrual pregnant sedentary ecg diet 体温 身体指标
    doctor: dentist optometrist therapy vet clinic symptom fever flu cardiologist pediatrician dermatologist surgeon specialist 儿科 皮肤科 心内科 专家号
    hospital: ambulance consultation icu ward surgery 病房 住院 出院 手术 三甲
    symptom: fever flu allergy pain nausea rash injury headache dizziness dizzy 头晕 乏力 胸闷
    medication: prescription antibiotic ibuprofen aspirin tylenol painkiller insulin 布洛芬 阿司匹林 抗生素 止痛药 胰岛素 感冒药
    checkup: bloodwork xray mri ultrasound 抽血 彩超 拍片 ct
    emergency: sos 急救电话 心肺复苏 cpr
    diet: calorie nutrition vegetarian fasting lowcarb 低碳 低脂 控糖
    sleep: snore dream 做梦 深睡 浅睡 rem 早睡
    heart: ecg hrv 心脏 心率变异 心动过速
    pet: vet puppy kitten hamster parrot rabbit 仓鼠 鹦鹉 兔子 小狗 小猫 猫砂
    food: pizza noodles dumplings sushi burger pasta salad sandwich steak ramen hotpot bbq snack dessert meal 火锅 饺子 面条 寿司 汉堡 披萨 麻辣烫
    restaurant: table menu queue tip buffet steakhouse pizzeria fastfood 自助餐 火锅店 快餐 网红店
    recipe: cook ingredient cup marinate stew roast 红烧 清蒸 炖汤 家常菜
    coffee: mocha americano macchiato frappuccino 美式 摩卡 手冲 冷萃
    tea: boba matcha oolong 抹茶 乌龙 绿茶 红茶 普洱
    pub: wine whiskey vodka 白酒 威士忌 葡萄酒 清吧 精酿
    dessert: icecream cookie pudding chocolate 冰淇淋 布丁 饼干 巧克力 马卡龙
    snack: chips popcorn nuts 薯片 爆米花 坚果 辣条
    nutrition: vitamin calcium 补钙 微量元素 膳食纤维
    deploy: rollback featureflag staging canary bluegreen 蓝绿部署 上线发布
    error: crash timeout segfault panic nullpointer 空指针 内存泄漏 报错信息
    debug: bug error crash breakpoint 断点 排障
    incident: outage oncall alerting sev1 故障处理 事故
    monitoring: alerting dashboard metric latency uptime tracing flamegraph cpu disk performance log 监控告警
    performance: latency flamegraph benchmark 吞吐 throughput qps
    server: cpu disk restart ssh uptime scale 物理机 云主机
    cloud: server container bucket terraform dns vpc lambda serverless ec2 s3 firewall 私有云 公有云
    database: schema mongodb sqlite postgresql oracle 索引 字段 主键 慢查询
    github: commit branch pr merge rebase diff changelog reviewer 开源 星标
    ci: build test lint 每日构建
    test: coverage benchmark e2e regression 回归测试 集成测试 冒烟测试
    code: snippet regex lint debug dependency python javascript java golang typescript 前端 后端
    dependency: pip maven gradle yarn pnpm composer 第三方库
    permission: admin sudo root 管理权限 角色权限
    network: internet vpn modem reception speedtest dns firewall router 5g 4g 信号强度
    carrier: roaming sim reception 5g 4g 运营商 移动联通
    encode: base64 utf8 unicode ascii 乱码
    hash: md5 sha256 crc 摘要算法
    login: password otp sso fingerprint logout 扫码登录 免密登录
    settings: darkmode font wallpaper rotate keyboard accessibility reset silent dim 系统设置 通用设置
    laptop: macbook thinkpad chromebook imac 轻薄本 游戏本
    identification: passport dmv ssn 社保卡 户口本 居住证
    personnel: leave attendance overtime shift onboarding resign appraisal benefits salary 人事系统 hr
    job: interview salary internship parttime freelance 实习 兼职 跳槽
    crm: lead client proposal contract revenue 客户跟进 回款
    news: trending article election celebrity earthquake politics economy 政治 财经 科技新闻 国际新闻 时政 breaking
    sport: soccer basketball baseball tennis nfl hockey golf cricket olympics badminton pingpong esports racing ufc score leaderboard lineup highlights volleyball 排球
    soccer: epl laliga bundesliga uefa 欧冠 西甲 德甲 意甲 中超
    basketball: cba wnba 男篮 女篮
    racing: f1 motogp indycar 赛道
    ufc: boxing wrestling judo taekwondo 摔跤 柔道 跆拳道
    bet: lottery casino poker 扑克 赌场
    social: post follow upvote comment repost profile hashtag impressions 动态 粉丝数
    game: riddle esports minecraft roblox steam xbox playstation nintendo 原神 开黑
    horoscope: aries taurus leo virgo libra scorpio sagittarius capricorn aquarius pisces 白羊座 金牛座 双子座 巨蟹座 狮子座 处女座 天秤座 天蝎座 射手座 摩羯座 水瓶座 双鱼座
    poem: haiku sonnet 宋词 对联 七言 五言
    plant: succulent cactus orchid 多肉 仙人掌 兰花
    school: exam teacher semester 老师 学期 班主任 家长会
    study: exam webinar quiz tutoring 家教 题库 背书 单词本
    webinar: coursera udemy 慕课 公开课 网校
    essay: proofread rewrite poem outline 大纲 草拟 续写
    """#
}
