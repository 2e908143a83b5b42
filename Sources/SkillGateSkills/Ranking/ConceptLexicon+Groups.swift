// The concept groups of ConceptLexicon: one group a line, English words (lowercase, single words or
// two-word phrases separated by one space) and Chinese words (2 to 4 characters), all of one meaning
// in the vocabulary of app tools and requests to them. Written from general knowledge, not from any
// evaluation corpus. Edit by hand; keep a group to one clear meaning.
extension ConceptLexicon {
    static let groups = #"""
    calendar schedule agenda planner 日历 日程 日程表 排期
    event occasion appointment 活动 事件 约见
    meeting conference standup 会议 开会 例会 碰头 会面
    invite invitation attendee participant guest rsvp 邀请 参会人 与会者 嘉宾
    reschedule postpone defer delay 改期 推迟 延后 改时间
    cancel cancellation cancelled 取消 撤销 作废 不去了
    availability available free busy slot 有空 空闲 没空 空档 时段
    recurring repeat daily weekly monthly 重复 每天 每周 每月 定期
    deadline due 截止 到期 期限 截止日期
    remind reminder remember nudge 提醒 记得 别忘了 提醒我
    alarm wake up snooze 闹钟 叫醒 起床 闹铃 贪睡
    timer countdown stopwatch 计时器 倒计时 秒表 计时
    notification notify alert push 通知 推送 消息提醒 提示
    silent dnd vibrate 静音模式 勿扰 免打扰 震动
    email mail inbox gmail outlook 邮件 邮箱 电子邮件 收件箱 发邮件
    reply respond 回复 答复 回信 回一下
    forward fwd 转发 转寄 转给
    attachment attach attached 附件 附上 附带
    draft compose 草稿 起草 撰写 写信
    unread unseen 未读 未读邮件 新邮件
    spam junk phishing scam 垃圾邮件 钓鱼 诈骗 骗局
    archive archived 归档 存档 收起来
    cc bcc recipient 抄送 密送 收件人
    unsubscribe newsletter 退订 取消订阅 订阅邮件
    text sms message ping dm imessage texting 短信 信息 消息 发消息 私信 发短信
    chat conversation whatsapp wechat telegram messenger 聊天 对话 微信 会话
    group channel slack 群聊 群组 频道 群消息
    call phone dial ring callback missed 打电话 通话 拨打 致电 来电 回电 未接来电
    facetime zoom webex 视频通话 视频会议 视频电话
    voicemail 语音信箱 语音留言 语音消息
    block blocklist blacklist 拉黑 屏蔽 黑名单
    contact phonebook 联系人 通讯录 电话簿
    mobile cellphone cell 电话号码 手机号 手机号码
    address street zip postcode 地址 住址 街道 门牌号 邮编
    family mom mother mum dad father parents 家人 妈妈 爸爸 父母 老妈 老爸
    friend buddy pal 朋友 好友 哥们 闺蜜
    colleague coworker boss manager 同事 老板 领导 上司
    wife husband spouse partner 老婆 老公 妻子 丈夫 爱人
    birthday anniversary bday 生日 纪念日 周年
    weather forecast 天气 预报 天气预报 天气如何
    temperature degrees celsius fahrenheit 温度 气温 度数 摄氏度 华氏度
    rain rainy raining umbrella drizzle 下雨 雨天 带伞 雨伞 降雨
    snow snowy snowing blizzard 下雪 雪天 暴雪 降雪
    sunny sunshine 晴天 晴朗 阳光 出太阳
    cloudy overcast fog foggy 多云 阴天 雾天 大雾
    wind windy gust breeze 刮风 大风 风力 风速
    storm thunderstorm thunder lightning typhoon hurricane 暴风雨 雷雨 台风 打雷 飓风
    humidity humid muggy 湿度 潮湿 闷热
    aqi pollution smog haze 空气质量 雾霾 污染 空气污染
    uv ultraviolet sunscreen sunburn 紫外线 防晒 晒伤
    sunrise sunset dawn dusk 日出 日落 黄昏 天亮
    map 地图 高德 百度地图
    navigate navigation directions route gps 导航 路线 怎么走 路线规划 指路
    distance far 距离 多远 远近 有多远
    traffic congestion jam gridlock 交通 堵车 拥堵 路况 塞车
    nearby nearest near around 附近 周边 周围 离我近
    location position coordinates whereabouts 位置 定位 地点 坐标 在哪 共享位置 实时位置
    parking carpark 停车 停车场 车位 泊车
    gas petrol gasoline fuel 加油站 加油 汽油 油价
    ev charger supercharger 充电桩 充电站 新能源车
    walking walk pedestrian 步行 走路 走着去
    driving drive 开车 驾车 自驾 驾驶
    bus coach 公交 公交车 巴士 公交站 大巴 长途车
    subway metro underground tube 地铁 轨道交通 地铁站
    arrive arrival eta 到达 抵达 多久到 预计到达
    commute commuting 通勤 上下班 上班路上
    toll highway freeway motorway expressway 高速 高速公路 收费站 过路费
    accident collision wreck 车祸 交通事故 封路
    taxi cab uber lyft didi ride 打车 叫车 出租车 网约车 滴滴 的士
    carpool rideshare 拼车 顺风车 合乘
    pickup 接人 来接 上车点 接送
    driver chauffeur 司机 师傅 驾驶员
    fare 车费 打车费 车钱
    destination dropoff 目的地 终点 下车点
    bike bicycle scooter 共享单车 单车 自行车 电动车
    flight fly plane airplane airline 航班 飞机 机票 坐飞机 航空公司
    airport gate 机场 航站楼 登机口
    checkin boarding 值机 登机 登机牌 办理登机
    delayed late 延误 晚点 准点 航班动态
    train rail railway amtrak 火车 高铁 动车 列车 车票 铁路
    seat aisle 座位 选座 靠窗 靠过道
    hotel motel inn lodging accommodation airbnb 酒店 宾馆 住宿 民宿 旅馆 入住 退房
    room suite 房间 客房 房型 大床房
    book booking reserve reservation 预订 预定 预约 订票 订房
    trip travel vacation journey getaway 旅行 旅游 度假 出游 出行 出差
    itinerary 行程 行程单 旅行计划
    passport visa customs immigration 护照 签证 海关 入境
    luggage baggage suitcase 行李 托运 行李箱
    rental hire 租车 汽车租赁 租辆车
    attractions sightseeing landmark 景点 景区 名胜 旅游景点
    departure depart takeoff 出发 起飞 离开 发车
    loyalty rewards points mileage 积分 里程 奖励 常旅客
    currency forex 货币 外汇 币种
    exchange fx 汇率 牌价 兑换 换汇 换钱
    dollar usd buck 美元 美金
    euro eur 欧元 欧元区
    yuan rmb cny renminbi 人民币 块钱 软妹币
    yen jpy 日元 日币
    pound gbp sterling quid 英镑
    translate translation translator interpret 翻译 译成 口译 翻成
    language 语言 语种 外语
    english 英语 英文 英文版
    chinese mandarin 中文 汉语 普通话 国语
    japanese 日语 日文 日本语
    korean 韩语 韩文 朝鲜语
    french francais 法语 法文
    spanish espanol 西班牙语 西语
    pronounce pronunciation 发音 读音 怎么读
    dictionary definition meaning define 词典 字典 释义 意思
    music song tune 音乐 歌曲 听歌 曲子
    play playing playback 播放 放歌 来一首 开始播放
    pause resume unpause 暂停 继续播放 停一下
    skip 下一首 上一首 切歌 跳过
    playlist mix 歌单 播放列表 歌曲列表
    artist singer band musician 歌手 艺人 乐队 歌星
    album 专辑 唱片 新专辑
    lyrics songtext 歌词 唱词
    podcast episode 播客 节目 单集
    radio fm broadcast 电台 收音机 广播 调频
    video clip youtube tiktok 视频 短视频 抖音 影片
    movie film cinema showtimes 电影 看电影 影院 场次
    tv television series 电视 电视剧 剧集 追剧
    livestream streaming 直播 开播 直播间
    volume louder quieter loud quiet softer 音量 大声 小声 调大 调小 声音
    mute unmute 静音 取消静音 关声音
    shuffle loop 随机播放 单曲循环 循环播放
    speaker soundbar 音箱 音响 喇叭
    headphones earphones earbuds airpods 耳机 蓝牙耳机 耳麦
    bluetooth pair pairing 蓝牙 配对 连接设备
    audiobook 有声书 听书 有声读物
    favorite favourite bookmark starred 收藏 收藏夹 书签 加星标
    cast casting airplay chromecast 投屏 投射 无线投屏
    light lamp bulb lighting 灯光 电灯 台灯 照明 开灯 关灯
    turn on enable activate 打开 开启 开机 激活
    turn off disable deactivate shutdown 关掉 关上 关机 熄灭
    open launch 启动 打开应用 运行
    close quit exit 关闭 退出 关闭应用
    dim dimmer brightness brighter darker 亮度 调暗 调亮 暗一点 亮一点
    color colour hue 颜色 色彩 灯色
    thermostat nest climate 恒温器 温控 温控器 室温
    heating heater heat radiator furnace cold chilly freezing warmer 暖气 供暖 取暖 加热 冷死了 好冷
    ac aircon conditioner conditioning cooling cool hot warm 空调 冷气 制冷 降温 热死了 好热
    fan 风扇 电扇 吊扇
    lock locked 锁门 上锁 锁上 门锁
    unlock unlocked 开锁 解锁 开门
    garage 车库门 车库 卷帘门
    camera cctv surveillance 摄像头 摄像机 监控画面
    doorbell 门铃 可视门铃 按门铃
    security arm disarm 安防 布防 撤防 安防系统
    vacuum roomba hoover mop 扫地机 吸尘器 扫地 拖地
    plug outlet socket 插座 智能插座 插头
    blinds curtains shades shutters 窗帘 百叶窗 遮光帘 卷帘
    routine automation scene 场景 自动化 联动 情景模式
    humidifier dehumidifier 加湿器 除湿机 除湿
    purifier 净化器 空气净化 新风系统
    laundry washer dryer 洗衣机 洗衣 烘干 烘干机
    boiler geyser 热水器 热水 洗澡水
    homekit alexa smartthings 智能家居 米家 智能设备
    device gadget appliance 设备 家电 电器
    sensor detector 传感器 感应器 烟感 烟雾报警
    bank banking 银行 网银 银行账户
    account 账户 账号 户头
    balance 余额 账户余额 剩余金额 还剩多少
    transfer wire remittance remit venmo zelle 转账 汇款 打款 转钱 打钱
    pay payment paypal 支付 付款 付钱 买单
    receive 收款 收钱 到账
    bill 账单 缴费 交费 付账单
    invoice receipt 发票 收据 小票 开票
    expense spending spend 支出 花费 开销 花销
    reimbursement reimburse 报销 报销单 费用报销
    budget budgeting 预算 限额 开支计划
    card credit debit mastercard 银行卡 信用卡 借记卡 刷卡
    freeze 挂失 冻结 冻结卡
    loan borrow lending lend 贷款 借款 借钱
    mortgage 房贷 按揭 房屋贷款
    interest apr apy compound 利息 利率 年化 复利
    repay repayment installment 还款 还钱 分期 月供
    invest investing investment portfolio 投资 理财 投资组合 持仓
    stock equity ticker 股票 个股 炒股 持股
    nasdaq dow index market quote 股市 大盘 指数 行情 股价
    fund etf 基金 定投 基金净值
    crypto cryptocurrency bitcoin btc ethereum eth 加密货币 比特币 以太坊 数字货币 币圈
    dividend payout 分红 股息 派息
    buy purchase 购买 买入 入手 买下
    sell selling sold 卖出 出售 卖掉 抛售
    wallet alipay applepay 钱包 支付宝 微信支付 电子钱包
    qr barcode 扫码 二维码 条形码 扫一扫
    refund chargeback 退款 退钱 返还
    top up recharge reload 充值 充钱 话费充值
    subscription subscribe renew renewal 订阅 续费 包月 自动续费
    membership member vip 会员 会员卡 贵宾
    salary paycheck payroll income wage 工资 薪水 收入 发工资
    tax vat 税费 报税 个税 增值税 纳税
    split dutch 平摊 均摊 分账 凑份子
    owe debt iou 欠款 欠钱 债务 欠债
    fraud unauthorized dispute 盗刷 欺诈 申诉 被盗刷
    transaction statement 交易记录 流水 对账单 明细
    savings deposit 存钱 储蓄 存款 攒钱
    withdraw withdrawal atm cash 取钱 取款 提现 现金
    insurance policy claim 保险 保单 理赔 投保
    overdue arrears 逾期 欠费 滞纳金
    hongbao 红包 发红包 抢红包
    fee surcharge 手续费 费用 收费 服务费
    shopping shop store mall 购物 网购 商场 买东西 逛街
    order 订单 订购 下单 我的订单
    cart basket 购物车 加购 加购物车
    checkout 结账 结算 收银台
    delivery deliver ship shipping shipment package parcel courier 配送 送货 发货 送达 快递 包裹 快件
    tracking 物流 查快递 快递单号 运单号
    locker collect 自提 取件 快递柜 取件码
    return 退货 换货 退换货
    coupon voucher promo 优惠券 优惠码 代金券 抵用券
    discount sale deal offer 打折 折扣 优惠 促销 特价 秒杀
    compare comparison cheapest 比价 最便宜 最低价 货比三家
    price cost pricing expensive how much 价格 多少钱 价钱 售价 贵不贵
    cheap inexpensive affordable 便宜 实惠 划算 性价比
    product item goods 商品 产品 宝贝 货物
    inventory restock 有货 缺货 库存 现货
    wishlist 心愿单 愿望单 想买
    review rating stars 评价 评分 好评 差评
    grocery supermarket 超市 买菜 生鲜 杂货
    amazon ebay taobao jd 淘宝 京东 拼多多 天猫
    repair repairman 维修 修理 报修 坏了
    support helpdesk 客服 人工客服 售后
    complaint complain 投诉 举报 抱怨
    feedback suggestion survey 反馈 意见 建议 问卷
    note memo jot 笔记 备忘录 记下 便签 备忘
    document doc 文档 文稿 在线文档
    file 文件 档案 资料
    folder directory 文件夹 目录
    pdf acrobat 电子版 电子文档
    dropbox icloud onedrive gdrive 云盘 网盘 云存储 百度网盘
    upload uploading 上传 传上去 上载
    download downloading 下载 下载到 离线下载
    share sharing 分享 共享 分享链接
    link url hyperlink website 链接 网址 网站 网页
    spreadsheet excel sheet csv 表格 电子表格 工作表
    presentation slides powerpoint deck ppt 幻灯片 演示文稿 演讲稿
    edit editing modify revise 编辑 修改 改一下 更改
    delete remove erase 删除 删掉 去掉 清除
    create creating 新建 创建 建立 新增
    add insert append 添加 加入 加上 加个
    save saved 保存 存下 保留 存起来
    copy duplicate clone 复制 拷贝 副本
    print printer printing 打印 打印机 打出来
    scan scanner scanned 扫描 扫描仪 扫描件
    export 导出 输出 另存为
    search find lookup query 搜索 查找 搜一下 查一下 查询 百度
    summarize summary tldr 总结 摘要 概括 归纳
    signature esign docusign signing 签名 签字 签署 电子签
    version revision 版本 历史版本 修订
    photo picture image pic selfie 照片 图片 相片 拍照 自拍
    gallery 相册 图库 相簿
    screenshot 截图 截屏 屏幕截图
    record recording recorder 录音 录制 录像
    transcribe transcription dictation 转写 转文字 听写 语音转写
    tts narrate aloud 朗读 读出来 语音播报
    ebook kindle novel 电子书 看书 阅读 小说
    filter crop retouch 修图 滤镜 裁剪 美颜
    task todo 任务 待办 待办事项 事项
    list checklist 清单 列表 购物清单
    done complete completed finish finished 完成 做完 搞定 勾选
    priority urgent important 优先级 紧急 重要 要紧
    assign assignee owner delegate 分配 指派 负责人 交给
    project 项目 工程 专案
    progress status 进度 状态 进展
    goal objective okr target 目标 小目标 年度目标
    plan planning 计划 规划 打算 安排
    habit streak 习惯 坚持 养成 连续天数
    focus pomodoro concentrate 专注 番茄钟 专心
    journal diary journaling 日记 手账 心情日记
    steps pedometer 步数 计步 计步器 走了几步
    workout exercise training fitness gym 锻炼 健身 运动 训练 健身房
    run running jog jogging 跑步 慢跑 晨跑 夜跑
    cycling biking 骑行 骑车 动感单车
    swim swimming pool 游泳 泳池 游泳馆
    yoga pilates stretch stretching 瑜伽 普拉提 拉伸
    calorie kcal 卡路里 热量 大卡 千卡
    sleep sleeping bedtime nap insomnia 睡眠 睡觉 午睡 入睡 失眠
    heart rate pulse bpm 心率 心跳 脉搏
    blood pressure bp hypertension 血压 高血压 低血压
    glucose diabetes 血糖 糖尿病 测血糖
    spo2 oxygen 血氧 血氧仪 含氧量
    weight bmi 体重 体脂 称重 胖了
    diet slim 减肥 减重 瘦身 节食
    medication medicine meds pills drug dose 吃药 服药 药物 用药 药品
    prescription refill pharmacy 处方 药房 药店 开药
    doctor physician gp 医生 大夫 看医生 看病
    hospital clinic outpatient 医院 诊所 门诊 卫生院
    consultation telehealth 挂号 预约挂号 网上挂号 问诊
    checkup physical 体检 健康检查 年度体检
    symptom sick ill unwell 症状 生病 不舒服 病了
    fever 发烧 发热 高烧 退烧
    flu cough 感冒 流感 咳嗽 嗓子疼
    allergy allergic 过敏 过敏原 过敏反应
    ambulance emergency 急救 救护车 急诊
    sos police 911 求救 报警 紧急呼叫 警察
    hydration 喝水 饮水 补水 喝水提醒
    meditation mindfulness breathe breathing 冥想 正念 深呼吸 呼吸练习
    stress anxiety mood 压力 焦虑 情绪 心理健康
    vaccine vaccination jab 疫苗 打疫苗 接种 打针
    health wellness 健康 健康数据 身体状况
    recipe 菜谱 食谱 做法 怎么做菜
    cook cooking 做饭 烹饪 下厨 做菜
    ingredient 食材 配料 原料 用料
    restaurant diner eatery yelp 餐厅 饭店 餐馆 饭馆 大众点评
    table opentable 订座 订位 订桌 订餐厅
    takeout takeaway doordash ubereats grubhub 外卖 点外卖 美团 饿了么 叫外卖
    menu dish 菜单 菜品 点菜 招牌菜
    hungry starving 饿了 好饿 饿死了
    food cuisine eat eating 美食 食物 饭菜 吃什么
    meal breakfast brunch lunch dinner supper 早餐 午餐 晚餐 吃饭 饭点
    coffee cafe latte starbucks 咖啡 咖啡店 拿铁 星巴克
    nutrition protein carbs macros 营养 蛋白质 碳水 营养成分
    tip tipping gratuity 小费 给小费 打赏
    queue waitlist 排队 等位 取号 叫号
    deploy deployment rollout release 部署 发布 上线 发版
    rollback revert downgrade 回滚 回退 降级 版本回退
    log logging syslog 日志 日志文件 运行日志
    error exception failure traceback 错误 报错 异常 出错
    crash crashed 崩溃 闪退 卡死
    outage downtime 宕机 故障 挂了 服务中断
    bug defect glitch 缺陷 毛病 程序错误
    server host instance vm 服务器 主机 实例 虚拟机
    database db sql postgres mysql 数据库 数据表 库表
    ticket issue jira 工单 问题单 需求单
    pull request pr 合并请求 拉取请求 代码合并
    reviewer lgtm 代码审查 代码评审 评审
    approve approval 审批 批准 通过 同意
    merge merging conflict 合并 合入 冲突
    build compile compilation 构建 编译 打包
    ci pipeline jenkins 持续集成 流水线 自动构建
    test testing qa 测试 单元测试 测试用例
    commit 代码提交 提交记录 推送代码
    branch 分支 主分支 主干
    repo repository github gitlab 仓库 代码库 代码仓库
    monitor monitoring observability grafana datadog 监控 可观测 监控系统
    alerting pagerduty opsgenie 告警 告警规则 告警通知
    oncall pager 值班 轮值 值守
    incident postmortem sev 线上事故 故障单 复盘 事故报告
    latency lag 延迟 时延 响应时间
    performance slow sluggish 性能 很慢 变慢 卡顿
    cpu memory ram 内存 处理器 负载 占用率
    disk storage 磁盘 硬盘 存储空间 空间不足
    restart reboot relaunch 重启 重新启动 重开
    scale scaling autoscale replicas 扩容 缩容 伸缩
    container docker kubernetes k8s pod 容器 集群 镜像 容器化
    api endpoint webhook 接口 端点 回调
    config configuration env 配置 配置文件 环境变量
    token credential secret apikey 密钥 令牌 凭证 秘钥
    permission access role grant 权限 授权 访问权限
    cache caching redis cdn 缓存 清缓存 刷新缓存
    command shell terminal script cli execute 执行 命令 终端 脚本 命令行
    cron crontab 定时任务 计划任务 定时作业
    backup restore snapshot 备份 恢复 还原 快照
    vulnerability cve patch 漏洞 安全漏洞 补丁 打补丁
    code coding programming 代码 编程 写代码 源码
    debug debugging troubleshoot 调试 排查 排错 定位问题
    staging production prod environment 生产环境 测试环境 预发 线上环境
    metric stats statistics analytics 指标 统计 数据分析 数据统计
    dashboard 仪表盘 仪表板 概览 数据大屏
    timeout 超时 连接超时 请求超时
    microservice 微服务 服务实例 后端服务
    cloud aws azure gcp 云服务 阿里云 腾讯云 云平台
    calculate calculator compute math 计算 算一下 计算器 算算
    plus sum addition total 加法 求和 相加 总和 加起来
    subtract minus difference 减法 相减 减去 差值
    multiply multiplied multiplication 乘法 乘以 相乘 乘积
    divide division quotient 除法 除以 相除 平分
    percent percentage % pct 百分比 百分之 百分点
    ratio proportion 比例 比率 占比
    average median 平均 平均值 中位数 均值
    sqrt exponent squared 平方 平方根 开方 乘方
    convert conversion unit 换算 转换 单位换算 单位
    kilometer km mile meter feet inch cm 公里 千米 英里 英尺 英寸 厘米
    kilogram kg lb gram ounce oz 公斤 千克 盎司 磅数
    speed mph kph 速度 时速 车速 每小时
    random dice coin 随机数 掷骰子 抛硬币 随机选
    count counting 数量 多少个 计数 几个
    chart graph plot 图表 曲线图 柱状图 折线图
    age 年龄 岁数 几岁 多大了
    news headline 新闻 头条 资讯 快讯
    trending trend viral popular 热搜 热门 热点 趋势
    article blog 文章 博客 报道
    sport match tournament league 体育 比赛 球赛 赛事
    score scoreboard 比分 得分 赛果 比赛结果
    soccer football 足球 世界杯 英超 踢球
    game gaming 游戏 玩游戏 打游戏 手游
    wikipedia wiki encyclopedia 百科 维基 百度百科 维基百科
    post tweet publish 发帖 发动态 朋友圈 发微博 推文
    follow following follower unfollow 关注 粉丝 取关 取消关注
    upvote thumbsup 点赞 赞同 点个赞
    comment 评论 留言 回帖
    repost retweet reshare 转发 转帖 转载
    social twitter facebook instagram weibo 社交媒体 微博 小红书 脸书 社交平台
    profile bio avatar 个人资料 头像 主页 个人主页
    tag label 标签 打标签 标记
    time clock 时间 几点 几点了 时刻
    timezone utc gmt 时区 时差 世界时钟
    date 日期 几号 哪天 日子
    weekday 星期几 周几 礼拜 工作日
    weekend saturday sunday 周末 星期六 星期天 周六 周日
    today 今天 今日 今儿
    tonight 今晚 今夜 今天晚上
    tomorrow tmr 明天 明日 明儿
    yesterday 昨天 昨日 昨儿
    morning 早上 上午 早晨 清早
    evening night 晚上 夜里 夜间 傍晚
    week 本周 这周 下周 一周
    month 本月 这个月 下个月 月份
    holiday 节日 假期 节假日 放假 春节 过年
    lunar 农历 阴历 黄历
    duration long 多久 多长时间 时长
    later soon 稍后 待会 一会儿 等会
    electricity 电费 用电 电力 用电量
    water 水费 用水 停水
    prepaid carrier 话费 流量 套餐 手机套餐
    wifi wireless network 无线网 网络 连网 移动热点
    internet broadband isp 宽带 网费 上网 网速
    rent landlord lease apartment tenant 房租 租房 房东 租金
    hoa 物业 物业费 管理费
    plumber plumbing leak pipe 漏水 水管 下水道 通马桶
    garbage trash rubbish recycling 垃圾 倒垃圾 垃圾分类 回收
    cleaning housekeeping maid cleaner 保洁 打扫 家政 打扫卫生
    blackout 停电 断电 跳闸
    pet dog cat 宠物 狗狗 猫咪 遛狗
    school homework class 学校 上课 作业 写作业
    car vehicle auto 汽车 车辆 爱车 私家车
    maintenance oil tire tyre carwash 保养 换机油 轮胎 洗车 年检
    login signin 登录 登陆 登入
    logout signout 退出登录 登出 注销
    sign up register registration signup enroll 注册 报名 开户 注册账号
    password passcode pin 密码 忘记密码 重置密码 改密码
    otp 2fa verification 验证码 短信验证 验证 认证
    settings preferences options 设置 偏好 选项 偏好设置
    update upgrade 更新 升级 新版本 版本更新
    sync syncing synchronize 同步 同步数据 数据同步
    battery charging charge 电量 电池 充电 没电了
    findmy locate 找手机 查找手机 定位手机 手机丢了
    help tutorial instructions guide howto 帮助 教程 怎么用 指南 使用说明
    job career hiring vacancy 工作 找工作 招聘 求职
    leave pto 请假 休假 年假 病假
    attendance timesheet 考勤 打卡 签到 上班打卡
    concert gig 演唱会 音乐会 演出 现场
    ticket admission 门票 购票 售票 票务 抢票 余票
    submit 提交 递交 上交
    """#
}
